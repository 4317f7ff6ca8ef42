#version 330 core
// Copies a texture (the trail buffer or the canvas) to the bound target.
in vec2 vUv;
uniform sampler2D uTex;
out vec4 fragColor;
void main() { fragColor = vec4(texture(uTex, vUv).rgb, 1.0); }
