#version 330 core
// Ground markers (render/markers.hpp): one round point per marker, world
// position and owner colour per vertex, all the same size on screen.
layout(location = 0) in vec2 aPos;    // world units
layout(location = 1) in vec4 aColor;  // normalised rgba
uniform mat4 uViewProj;
uniform float uDotPx;  // diameter, pixels
flat out vec4 vColor;
void main() {
  vColor = aColor;
  gl_PointSize = uDotPx + 1.0;  // one more pixel for the soft edge
  gl_Position = uViewProj * vec4(aPos, 0.0, 1.0);
}
