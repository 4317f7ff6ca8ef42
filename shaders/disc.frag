#version 330 core
// Anti-aliased disc with a heading tick; jammed walkers get an orange ring,
// the selected walker a dark one, its neighbours a teal one. Coverage comes
// from the distance in pixels, so edges stay one pixel soft at any zoom.
#ifndef POINTS
in vec2 vLocal;
#endif
flat in float vRadius;
flat in vec2 vHeading;
flat in vec4 vColor;
flat in uint vFlags;
flat in float vExtent;

uniform float uPixel;
uniform float uTickOn;     // 0 for trail dots

out vec4 fragColor;

const vec3 kJamOrange = vec3(1.0, 140.0 / 255.0, 0.0);

float cover(float signedDistPx) { return clamp(0.5 - signedDistPx, 0.0, 1.0); }

void main() {
#ifdef POINTS
  // gl_PointCoord runs over the sprite with y down; world y is up.
  vec2 vLocal = (gl_PointCoord * 2.0 - 1.0) * vec2(1.0, -1.0) * vExtent;
#endif
  float d = length(vLocal);
  float dpx = (d - vRadius) / uPixel;  // > 0 outside the disc, pixels
  vec4 col = vec4(vColor.rgb, vColor.a * cover(dpx));

  // Heading tick: a bar from the centre to the rim along the heading.
  if (uTickOn > 0.5 && dot(vHeading, vHeading) > 0.0) {
    float along = dot(vLocal, vHeading);
    float across = abs(vHeading.x * vLocal.y - vHeading.y * vLocal.x);
    float halfWidth = max(0.12 * vRadius, 0.75 * uPixel);
    float inBar = cover((across - halfWidth) / uPixel) * step(0.0, along) * cover(dpx);
    col.rgb = mix(col.rgb, vColor.rgb * 0.35, inBar);
  }

  // Rings outside the disc: a gap of ~15% radius (>= 1 px), then the band.
  if (vFlags != 0u && uTickOn > 0.5) {
    float gap = max(0.12 * vRadius, 1.0 * uPixel);
    float width = max(0.3 * vRadius, 3.0 * uPixel);
    float inner = vRadius + gap, outer = inner + width;
    float band = cover((inner - d) / uPixel) * cover((d - outer) / uPixel);
    vec3 ringCol = (vFlags & 1u) != 0u ? kJamOrange : ((vFlags & 2u) != 0u ? vec3(0.08) : vec3(0.0, 0.63, 0.75));
    // A jammed selected walker: orange band with a dark outer edge.
    if ((vFlags & 3u) == 3u) {
      float edge = cover((outer - 0.35 * width - d) / uPixel);
      ringCol = mix(vec3(0.08), kJamOrange, edge);
    }
    col = mix(col, vec4(ringCol, 1.0), band * (1.0 - col.a));
    col.a = max(col.a, band);
  }
  if (col.a <= 0.0) discard;
  fragColor = col;
}
