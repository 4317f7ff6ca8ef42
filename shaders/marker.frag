#version 330 core
// A round, anti-aliased dot uDotPx across (the sprite is one pixel wider).
flat in vec4 vColor;
uniform float uDotPx;
out vec4 fragColor;
void main() {
  float d = length(gl_PointCoord - 0.5) * (uDotPx + 1.0);  // pixels from the centre
  float a = clamp(0.5 * uDotPx + 0.5 - d, 0.0, 1.0);
  if (a <= 0.0) discard;
  fragColor = vec4(vColor.rgb, vColor.a * a);
}
