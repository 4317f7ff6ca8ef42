#version 330 core
flat in vec4 vColor;
flat in float vRadiusPx;
out vec4 fragColor;
void main() {
  float size = min(2.0 * vRadiusPx + 2.0, 1e4);
  float d = length(gl_PointCoord - 0.5) * size;  // pixels from the centre
  float a = clamp(vRadiusPx + 0.5 - d, 0.0, 1.0);
  if (a <= 0.0) discard;
  fragColor = vec4(vColor.rgb, vColor.a * a);
}
