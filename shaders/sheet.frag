#version 330 core
// The translucent sheet that fades the trail buffer a little every frame.
uniform vec4 uColor;
out vec4 fragColor;
void main() { fragColor = uColor; }
