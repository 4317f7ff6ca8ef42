#version 330 core
// Fades the trail buffer toward the background by a fraction `uColor.a`
// of the difference each frame: the translucent sheet, computed in a
// shader (ping-pong between two RGBA8 targets). Each channel also moves at
// least one 8-bit level, so old trails fade all the way out instead of
// sticking a few levels off the background as plain blending does.
uniform sampler2D uTex;
uniform vec4 uColor;  // background rgb, fade
out vec4 fragColor;
void main() {
  vec3 old = texelFetch(uTex, ivec2(gl_FragCoord.xy), 0).rgb;
  if (uColor.a <= 0.0) { fragColor = vec4(old, 1.0); return; }
  vec3 d = uColor.rgb - old;
  vec3 s = d * uColor.a;
  vec3 least = sign(d) * min(abs(d), vec3(1.0 / 255.0));
  s = mix(least, s, step(vec3(1.0 / 255.0), abs(s)));
  fragColor = vec4(old + s, 1.0);
}
