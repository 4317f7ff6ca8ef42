#version 330 core
// A cell's texel (nearest: cells show as squares) at the overlay's opacity.
in vec2 vUv;
uniform sampler2D uTex;
uniform float uOpacity;
out vec4 fragColor;
void main() {
  vec4 c = texture(uTex, vUv);
  fragColor = vec4(c.rgb, c.a * uOpacity);
}
