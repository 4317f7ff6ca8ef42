#version 330 core
// Instanced walker discs. One quad per instance; the instance record is
// render/instance.hpp's AgentInstance (32 bytes). Compiled a second time
// with POINTS defined: one point sprite per walker instead, for when every
// disc is small on screen (much cheaper per walker on software GL).
layout(location = 0) in vec2 aCorner;      // quad corner in [-1, 1]^2
layout(location = 1) in vec4 iPosRadSpeed; // x, y, radius, speed
layout(location = 2) in vec2 iHeading;     // unit heading or (0, 0)
layout(location = 3) in vec4 iColor;       // normalised rgba
layout(location = 4) in uint iFlags;       // kInstance* bits

uniform mat4 uViewProj;
uniform float uPixel;      // world units per pixel
uniform float uRadiusScale; // 1 for walkers, < 1 for trail dots

#ifndef POINTS
out vec2 vLocal;           // position relative to the centre, world units
#endif
flat out float vRadius;
flat out vec2 vHeading;
flat out vec4 vColor;
flat out uint vFlags;
flat out float vExtent;

void main() {
  float r = iPosRadSpeed.z * uRadiusScale;
  // Room for the jam or selection ring outside the disc, at least 4 px.
  float ring = (iFlags != 0u && uRadiusScale >= 1.0) ? max(0.55 * r, 5.0 * uPixel) : 0.0;
  float extent = r + ring + 1.5 * uPixel;
  vRadius = r;
  vHeading = iHeading;
  vColor = iColor;
  vFlags = iFlags;
  vExtent = extent;
#ifdef POINTS
  gl_PointSize = 2.0 * extent / uPixel;
  gl_Position = uViewProj * vec4(iPosRadSpeed.xy, 0.0, 1.0);
#else
  vLocal = aCorner * extent;
  gl_Position = uViewProj * vec4(iPosRadSpeed.xy + vLocal, 0.0, 1.0);
#endif
}
