#version 330 core
// The field overlay (render/field_layer.hpp): one quad over the field grid,
// from gl_VertexID (a 4-vertex strip, no vertex buffer), one texel per cell.
uniform mat4 uViewProj;
uniform vec2 uOrigin;  // the grid's lower-left corner, world units
uniform vec2 uSize;    // cols * cell, rows * cell
out vec2 vUv;
void main() {
  vec2 p = vec2(gl_VertexID & 1, (gl_VertexID >> 1) & 1);
  vUv = p;
  gl_Position = uViewProj * vec4(uOrigin + p * uSize, 0.0, 1.0);
}
