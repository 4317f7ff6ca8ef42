#version 330 core
// Trail dots: one point sprite per walker, read from the same instance
// buffer as the discs (render/instance.hpp), without instancing.
layout(location = 1) in vec4 iPosRadSpeed;  // x, y, radius, speed
layout(location = 3) in vec4 iColor;
uniform mat4 uViewProj;
uniform float uPixel;
uniform float uRadiusScale;
uniform float uMaxPointSize;
flat out vec4 vColor;
flat out float vRadiusPx;
void main() {
  vColor = iColor;
  vRadiusPx = max(iPosRadSpeed.z * uRadiusScale / uPixel, 0.5);
  gl_PointSize = min(2.0 * vRadiusPx + 2.0, uMaxPointSize);
  gl_Position = uViewProj * vec4(iPosRadSpeed.xy, 0.0, 1.0);
}
