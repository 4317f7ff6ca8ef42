#include <epoxy/gl.h>  // before anything that may include GL/gl.h

#include "render/gl_renderer.hpp"

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include <stb_image_write.h>

#include "throng/output_file.hpp"

namespace throng::render {

struct EmbeddedShader {
  const char* name;
  const char* source;
};
extern const EmbeddedShader kEmbeddedShaders[];

namespace {

// The shader `name`: from $THRONG_SHADER_DIR when set and readable (for
// editing shaders without rebuilding), else the copy embedded at build time.
std::string shaderSource(const char* name) {
  if (const char* dir = std::getenv("THRONG_SHADER_DIR")) {
    std::ifstream f(std::string(dir) + "/" + name);
    if (f) {
      std::stringstream ss;
      ss << f.rdbuf();
      return ss.str();
    }
  }
  for (const EmbeddedShader* s = kEmbeddedShaders; s->name; ++s)
    if (std::strcmp(s->name, name) == 0) return s->source;
  return {};
}

GLuint compile(GLenum type, const char* name, std::string* error, const char* defines = "") {
  std::string src = shaderSource(name);
  if (*defines) {  // after the #version line
    const auto eol = src.find('\n');
    src.insert(eol == std::string::npos ? src.size() : eol + 1, defines);
  }
  if (src.empty()) {
    if (error) *error = std::string("shader not found: ") + name;
    return 0;
  }
  const GLuint s = glCreateShader(type);
  const char* p = src.c_str();
  glShaderSource(s, 1, &p, nullptr);
  glCompileShader(s);
  GLint ok = 0;
  glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
  if (!ok) {
    char log[2048] = {};
    glGetShaderInfoLog(s, sizeof log, nullptr, log);
    if (error) *error = std::string("shader ") + name + ": " + log;
    glDeleteShader(s);
    return 0;
  }
  return s;
}

GLuint program(const char* vs, const char* fs, std::string* error, const char* defines = "") {
  const GLuint v = compile(GL_VERTEX_SHADER, vs, error, defines);
  if (!v) return 0;
  const GLuint f = compile(GL_FRAGMENT_SHADER, fs, error, defines);
  if (!f) { glDeleteShader(v); return 0; }
  const GLuint p = glCreateProgram();
  glAttachShader(p, v);
  glAttachShader(p, f);
  glLinkProgram(p);
  glDeleteShader(v);
  glDeleteShader(f);
  GLint ok = 0;
  glGetProgramiv(p, GL_LINK_STATUS, &ok);
  if (!ok) {
    char log[2048] = {};
    glGetProgramInfoLog(p, sizeof log, nullptr, log);
    if (error) *error = std::string("link ") + vs + "+" + fs + ": " + log;
    glDeleteProgram(p);
    return 0;
  }
  return p;
}

void rgbaToFloat(std::uint32_t c, float out[4]) {
  for (int k = 0; k < 4; ++k) out[k] = static_cast<float>((c >> (8 * k)) & 255u) / 255.0f;
}

void setMeshAttribs() {
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, sizeof(Vertex), reinterpret_cast<void*>(offsetof(Vertex, x)));
  glEnableVertexAttribArray(1);
  glVertexAttribPointer(1, 4, GL_UNSIGNED_BYTE, GL_TRUE, sizeof(Vertex), reinterpret_cast<void*>(offsetof(Vertex, rgba)));
}

bool sameView(const Camera2D& a, const Camera2D& b) {
  return a.center == b.center && a.zoom == b.zoom && a.width == b.width && a.height == b.height;
}

}  // namespace

GlRenderer::~GlRenderer() {
  if (!discProg_) return;  // never initialised (or no context)
  destroyTargets();
  const GLuint bufs[] = {quadVbo_, instanceVbo_, sceneVbo_, overlayVbo_, markers_[0].vbo, markers_[1].vbo, fieldMeshVbo_};
  glDeleteBuffers(7, bufs);
  const GLuint vaos[] = {discVao_, sceneVao_, overlayVao_, emptyVao_, dotVao_, markers_[0].vao, markers_[1].vao,
                         fieldMeshVao_};
  glDeleteVertexArrays(8, vaos);
  if (fieldTex_) glDeleteTextures(1, &fieldTex_);
  for (GLuint p : {discProg_, flatProg_, fadeProg_, blitProg_, dotProg_, discPointProg_, markerProg_, fieldProg_})
    glDeleteProgram(p);
}

bool GlRenderer::init(std::string* error) {
  if (epoxy_gl_version() < 33) {
    if (error) *error = "OpenGL 3.3 or later is needed; this context gives " + std::to_string(epoxy_gl_version());
    return false;
  }
  discProg_ = program("disc.vert", "disc.frag", error);
  flatProg_ = discProg_ ? program("flat.vert", "flat.frag", error) : 0;
  fadeProg_ = flatProg_ ? program("screen.vert", "fade.frag", error) : 0;
  blitProg_ = fadeProg_ ? program("screen.vert", "blit.frag", error) : 0;
  dotProg_ = blitProg_ ? program("dot.vert", "dot.frag", error) : 0;
  discPointProg_ = dotProg_ ? program("disc.vert", "disc.frag", error, "#define POINTS 1\n") : 0;
  markerProg_ = discPointProg_ ? program("marker.vert", "marker.frag", error) : 0;
  fieldProg_ = markerProg_ ? program("field.vert", "field.frag", error) : 0;
  if (!fieldProg_) return false;
  GLfloat range[2] = {1, 1};
  glGetFloatv(GL_ALIASED_POINT_SIZE_RANGE, range);
  maxPointSize_ = range[1];
  glGetIntegerv(GL_MAX_TEXTURE_SIZE, &maxTextureSize_);

  const float quad[8] = {-1, -1, 1, -1, -1, 1, 1, 1};
  glGenBuffers(1, &quadVbo_);
  glBindBuffer(GL_ARRAY_BUFFER, quadVbo_);
  glBufferData(GL_ARRAY_BUFFER, sizeof quad, quad, GL_STATIC_DRAW);
  glGenBuffers(1, &instanceVbo_);
  glGenVertexArrays(1, &discVao_);
  glBindVertexArray(discVao_);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
  glBindBuffer(GL_ARRAY_BUFFER, instanceVbo_);
  const GLsizei stride = sizeof(AgentInstance);
  glEnableVertexAttribArray(1);
  glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, stride, reinterpret_cast<void*>(offsetof(AgentInstance, x)));
  glVertexAttribDivisor(1, 1);
  glEnableVertexAttribArray(2);
  glVertexAttribPointer(2, 2, GL_FLOAT, GL_FALSE, stride, reinterpret_cast<void*>(offsetof(AgentInstance, hx)));
  glVertexAttribDivisor(2, 1);
  glEnableVertexAttribArray(3);
  glVertexAttribPointer(3, 4, GL_UNSIGNED_BYTE, GL_TRUE, stride, reinterpret_cast<void*>(offsetof(AgentInstance, rgba)));
  glVertexAttribDivisor(3, 1);
  glEnableVertexAttribArray(4);
  glVertexAttribIPointer(4, 1, GL_UNSIGNED_INT, stride, reinterpret_cast<void*>(offsetof(AgentInstance, flags)));
  glVertexAttribDivisor(4, 1);

  // Markers are Vertex records too, drawn as points.
  for (auto [vao, vbo] : {std::pair{&sceneVao_, &sceneVbo_}, std::pair{&overlayVao_, &overlayVbo_},
                          std::pair{&markers_[0].vao, &markers_[0].vbo}, std::pair{&markers_[1].vao, &markers_[1].vbo},
                          std::pair{&fieldMeshVao_, &fieldMeshVbo_}}) {
    glGenVertexArrays(1, vao);
    glGenBuffers(1, vbo);
    glBindVertexArray(*vao);
    glBindBuffer(GL_ARRAY_BUFFER, *vbo);
    setMeshAttribs();
  }
  // Trail dots: the instance records as plain vertices (divisor 0).
  glGenVertexArrays(1, &dotVao_);
  glBindVertexArray(dotVao_);
  glBindBuffer(GL_ARRAY_BUFFER, instanceVbo_);
  glEnableVertexAttribArray(1);
  glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, stride, reinterpret_cast<void*>(offsetof(AgentInstance, x)));
  glEnableVertexAttribArray(2);
  glVertexAttribPointer(2, 2, GL_FLOAT, GL_FALSE, stride, reinterpret_cast<void*>(offsetof(AgentInstance, hx)));
  glEnableVertexAttribArray(3);
  glVertexAttribPointer(3, 4, GL_UNSIGNED_BYTE, GL_TRUE, stride, reinterpret_cast<void*>(offsetof(AgentInstance, rgba)));
  glEnableVertexAttribArray(4);
  glVertexAttribIPointer(4, 1, GL_UNSIGNED_INT, stride, reinterpret_cast<void*>(offsetof(AgentInstance, flags)));
  glGenVertexArrays(1, &emptyVao_);
  glBindVertexArray(0);
  return glGetError() == GL_NO_ERROR || (error && (*error = "GL error during init", false));
}

void GlRenderer::destroyTargets() {
  if (canvasFbo_) {
    const GLuint fbos[] = {canvasFbo_, trailFbo_[0], trailFbo_[1]};
    glDeleteFramebuffers(3, fbos);
    const GLuint texs[] = {canvasTex_, trailTex_[0], trailTex_[1]};
    glDeleteTextures(3, texs);
  }
  canvasFbo_ = canvasTex_ = 0;
  trailFbo_[0] = trailFbo_[1] = trailTex_[0] = trailTex_[1] = 0;
}

void GlRenderer::resize(int w, int h) {
  w = std::max(w, 1);
  h = std::max(h, 1);
  if (w == width_ && h == height_ && canvasFbo_) return;
  destroyTargets();
  width_ = w;
  height_ = h;
  auto target = [&](GLuint& fbo, GLuint& tex, GLint internal, GLenum type) {
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    glTexImage2D(GL_TEXTURE_2D, 0, internal, w, h, 0, GL_RGBA, type, nullptr);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 0);
  };
  target(canvasFbo_, canvasTex_, GL_RGBA8, GL_UNSIGNED_BYTE);
  target(trailFbo_[0], trailTex_[0], GL_RGBA8, GL_UNSIGNED_BYTE);
  target(trailFbo_[1], trailTex_[1], GL_RGBA8, GL_UNSIGNED_BYTE);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  trailColumns_.clear();
}

void GlRenderer::setSceneMesh(const Mesh& mesh) {
  glBindBuffer(GL_ARRAY_BUFFER, sceneVbo_);
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(mesh.tris.size() * sizeof(Vertex)),
               mesh.tris.empty() ? nullptr : mesh.tris.data(), GL_STATIC_DRAW);
  sceneVertices_ = mesh.tris.size();
}

void GlRenderer::setMarkers(std::span<const Vertex> points, float dotPx, int set) {
  MarkerSet& m = markers_[set == 1 ? 1 : 0];
  m.count = points.size();
  m.dotPx = dotPx;
  if (points.empty()) return;
  glBindBuffer(GL_ARRAY_BUFFER, m.vbo);
  if (points.size() > m.capacity) m.capacity = points.size() + points.size() / 2;
  // Orphan the old storage (as for the instances) so the upload never waits on the last draw.
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(m.capacity * sizeof(Vertex)), nullptr, GL_STREAM_DRAW);
  glBufferSubData(GL_ARRAY_BUFFER, 0, static_cast<GLsizeiptr>(points.size() * sizeof(Vertex)), points.data());
}

bool GlRenderer::setField(std::span<const std::uint32_t> texels, int cols, int rows, Vec2 origin, float cell) {
  fieldCols_ = fieldRows_ = 0;
  if (texels.empty() || cols <= 0 || rows <= 0 || !(cell > 0) ||
      texels.size() < static_cast<std::size_t>(cols) * static_cast<std::size_t>(rows))
    return texels.empty();
  if (cols > maxTextureSize_ || rows > maxTextureSize_) return false;
  if (!fieldTex_) {
    glGenTextures(1, &fieldTex_);
    glBindTexture(GL_TEXTURE_2D, fieldTex_);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  }
  glBindTexture(GL_TEXTURE_2D, fieldTex_);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  if (cols != fieldTexCols_ || rows != fieldTexRows_) {
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, cols, rows, 0, GL_RGBA, GL_UNSIGNED_BYTE, texels.data());
    fieldTexCols_ = cols;
    fieldTexRows_ = rows;
  } else {
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, cols, rows, GL_RGBA, GL_UNSIGNED_BYTE, texels.data());
  }
  fieldCols_ = cols;
  fieldRows_ = rows;
  fieldOrigin_ = origin;
  fieldCell_ = cell;
  return true;
}

void GlRenderer::setFieldMesh(const Mesh& mesh) {
  fieldMeshVertices_ = mesh.tris.size();
  if (mesh.tris.empty()) return;
  glBindBuffer(GL_ARRAY_BUFFER, fieldMeshVbo_);
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(mesh.tris.size() * sizeof(Vertex)), mesh.tris.data(),
               GL_STREAM_DRAW);
}

void GlRenderer::uploadInstances(std::span<const AgentInstance> a) {
  glBindBuffer(GL_ARRAY_BUFFER, instanceVbo_);
  const auto bytes = static_cast<GLsizeiptr>(a.size() * sizeof(AgentInstance));
  if (a.size() > instanceCapacity_) {
    instanceCapacity_ = a.size() + a.size() / 2;
    glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(instanceCapacity_ * sizeof(AgentInstance)), nullptr,
                 GL_STREAM_DRAW);
  } else {
    // Orphan the old storage so the upload never waits on the last draw.
    glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(instanceCapacity_ * sizeof(AgentInstance)), nullptr,
                 GL_STREAM_DRAW);
  }
  if (bytes) glBufferSubData(GL_ARRAY_BUFFER, 0, bytes, a.data());
  instanceCount_ = a.size();
  maxRadius_ = 0;
  for (const AgentInstance& i : a) maxRadius_ = std::max(maxRadius_, i.radius);
}

void GlRenderer::useInstanceBuffer(std::size_t count, float maxRadius) {
  maxRadius_ = maxRadius;
  if (count > instanceCapacity_) {
    instanceCapacity_ = count;
    glBindBuffer(GL_ARRAY_BUFFER, instanceVbo_);
    glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(count * sizeof(AgentInstance)), nullptr, GL_DYNAMIC_DRAW);
  }
  instanceCount_ = count;
}

void GlRenderer::drawInstances(const Camera2D& cam, std::size_t count, float radiusScale, bool tick) {
  if (!count) return;
  // Point sprites while every disc (with its ring) is at most kMaxPointDiscPx
  // across on screen: the same fragment math, a quarter of the vertices.
  const float px = cam.pixelSize();
  const float r = maxRadius_ * radiusScale;
  const float extentPx = (r + std::max(0.55f * r, 5 * px) + 1.5f * px) / px;
  const bool points = !forceQuads && 2 * extentPx <= std::min(maxPointSize_, kMaxPointDiscPx);
  lastDrawUsedPoints_ = points;
  const GLuint prog = points ? discPointProg_ : discProg_;
  glUseProgram(prog);
  if (points) {
    glEnable(GL_PROGRAM_POINT_SIZE);
    const glm::mat4 vp = cam.viewProjection();
    glUniformMatrix4fv(glGetUniformLocation(prog, "uViewProj"), 1, GL_FALSE, &vp[0][0]);
    glUniform1f(glGetUniformLocation(prog, "uPixel"), px);
    glUniform1f(glGetUniformLocation(prog, "uRadiusScale"), radiusScale);
    glUniform1f(glGetUniformLocation(prog, "uTickOn"), tick ? 1.0f : 0.0f);
    glBindVertexArray(dotVao_);
    glDrawArrays(GL_POINTS, 0, static_cast<GLsizei>(count));
    return;
  }
  const glm::mat4 vp = cam.viewProjection();
  glUniformMatrix4fv(glGetUniformLocation(discProg_, "uViewProj"), 1, GL_FALSE, &vp[0][0]);
  glUniform1f(glGetUniformLocation(discProg_, "uPixel"), cam.pixelSize());
  glUniform1f(glGetUniformLocation(discProg_, "uRadiusScale"), radiusScale);
  glUniform1f(glGetUniformLocation(discProg_, "uTickOn"), tick ? 1.0f : 0.0f);
  glBindVertexArray(discVao_);
  glDrawArraysInstanced(GL_TRIANGLE_STRIP, 0, 4, static_cast<GLsizei>(count));
}

void GlRenderer::drawDots(const Camera2D& cam, std::size_t count, float radiusScale) {
  if (!count) return;
  glEnable(GL_PROGRAM_POINT_SIZE);
  glUseProgram(dotProg_);
  const glm::mat4 vp = cam.viewProjection();
  glUniformMatrix4fv(glGetUniformLocation(dotProg_, "uViewProj"), 1, GL_FALSE, &vp[0][0]);
  glUniform1f(glGetUniformLocation(dotProg_, "uPixel"), cam.pixelSize());
  glUniform1f(glGetUniformLocation(dotProg_, "uRadiusScale"), radiusScale);
  glUniform1f(glGetUniformLocation(dotProg_, "uMaxPointSize"), maxPointSize_);
  glBindVertexArray(dotVao_);
  glDrawArrays(GL_POINTS, 0, static_cast<GLsizei>(count));
}

void GlRenderer::drawMesh(const Camera2D& cam, unsigned vao, unsigned, std::size_t n) {
  if (!n) return;
  glUseProgram(flatProg_);
  const glm::mat4 vp = cam.viewProjection();
  glUniformMatrix4fv(glGetUniformLocation(flatProg_, "uViewProj"), 1, GL_FALSE, &vp[0][0]);
  glBindVertexArray(vao);
  glDrawArrays(GL_TRIANGLES, 0, static_cast<GLsizei>(n));
}

void GlRenderer::drawMarkers(const Camera2D& cam, const MarkerSet& set) {
  if (!set.count) return;
  glEnable(GL_PROGRAM_POINT_SIZE);
  glUseProgram(markerProg_);
  const glm::mat4 vp = cam.viewProjection();
  glUniformMatrix4fv(glGetUniformLocation(markerProg_, "uViewProj"), 1, GL_FALSE, &vp[0][0]);
  glUniform1f(glGetUniformLocation(markerProg_, "uDotPx"), std::min(set.dotPx, maxPointSize_ - 1));
  glBindVertexArray(set.vao);
  glDrawArrays(GL_POINTS, 0, static_cast<GLsizei>(set.count));
}

void GlRenderer::drawField(const Camera2D& cam, float opacity) {
  if (!fieldCols_ || !(opacity > 0)) return;
  glUseProgram(fieldProg_);
  const glm::mat4 vp = cam.viewProjection();
  glUniformMatrix4fv(glGetUniformLocation(fieldProg_, "uViewProj"), 1, GL_FALSE, &vp[0][0]);
  glUniform2f(glGetUniformLocation(fieldProg_, "uOrigin"), fieldOrigin_.x, fieldOrigin_.y);
  glUniform2f(glGetUniformLocation(fieldProg_, "uSize"), fieldCell_ * static_cast<float>(fieldCols_),
              fieldCell_ * static_cast<float>(fieldRows_));
  glUniform1f(glGetUniformLocation(fieldProg_, "uOpacity"), std::min(opacity, 1.0f));
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, fieldTex_);
  glUniform1i(glGetUniformLocation(fieldProg_, "uTex"), 0);
  glBindVertexArray(emptyVao_);
  glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
}

void GlRenderer::draw(const Camera2D& cam, std::span<const AgentInstance> agents, const Mesh* overlay,
                      const RenderOptions& opt) {
  if (!agents.empty()) uploadInstances(agents);
  float bg[4];
  rgbaToFloat(opt.background, bg);
  glDisable(GL_DEPTH_TEST);
  glDisable(GL_CULL_FACE);
  glDisable(GL_SCISSOR_TEST);
  glEnable(GL_BLEND);
  glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
  glViewport(0, 0, width_, height_);
  const bool part = opt.viewportWidth > 0;
  if (part) {
    // One column of the canvas: the clear and every draw stay inside it.
    const int x = std::clamp(opt.viewportX, 0, width_), w = std::clamp(opt.viewportWidth, 0, width_ - x);
    glViewport(x, 0, w, height_);
    glScissor(x, 0, w, height_);
    glEnable(GL_SCISSOR_TEST);
  }

  // The column drawn: the whole canvas, or one side by side (the scissor keeps every pass in it).
  const int colX = part ? std::clamp(opt.viewportX, 0, width_) : 0;
  const int colW = part ? std::clamp(opt.viewportWidth, 0, width_ - colX) : width_;
  if (opt.trails) {
    bool fresh = false;
    TrailColumn& col = trailColumn(colX, colW, fresh);
    if (fresh || !sameView(cam, col.camera)) {
      glBindFramebuffer(GL_FRAMEBUFFER, trailFbo_[col.cur]);
      glClearColor(bg[0], bg[1], bg[2], 1);
      glClear(GL_COLOR_BUFFER_BIT);
      col.camera = cam;
    }
    // Fade cur into next, then stamp the dots on next.
    const int next = 1 - col.cur;
    glBindFramebuffer(GL_FRAMEBUFFER, trailFbo_[next]);
    glDisable(GL_BLEND);
    glUseProgram(fadeProg_);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, trailTex_[col.cur]);
    glUniform1i(glGetUniformLocation(fadeProg_, "uTex"), 0);
    glUniform4f(glGetUniformLocation(fadeProg_, "uColor"), bg[0], bg[1], bg[2], std::clamp(opt.trailFade, 0.0f, 1.0f));
    glBindVertexArray(emptyVao_);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    glEnable(GL_BLEND);
    drawDots(cam, instanceCount_, opt.trailDotScale);
    col.cur = next;
    // A framebuffer blit of the column (a copy; cheaper than a shader pass on llvmpipe).
    glBindFramebuffer(GL_READ_FRAMEBUFFER, trailFbo_[col.cur]);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, canvasFbo_);
    glBlitFramebuffer(colX, 0, colX + colW, height_, colX, 0, colX + colW, height_, GL_COLOR_BUFFER_BIT, GL_NEAREST);
    glBindFramebuffer(GL_FRAMEBUFFER, canvasFbo_);
  } else {
    std::erase_if(trailColumns_, [&](const TrailColumn& c) { return c.x == colX && c.width == colW; });
    glBindFramebuffer(GL_FRAMEBUFFER, canvasFbo_);
    glClearColor(bg[0], bg[1], bg[2], 1);
    glClear(GL_COLOR_BUFFER_BIT);
  }
  if (opt.runLayers) drawField(cam, opt.fieldOpacity);
  drawMesh(cam, sceneVao_, sceneVbo_, sceneVertices_);
  if (opt.runLayers) drawMesh(cam, fieldMeshVao_, fieldMeshVbo_, fieldMeshVertices_);
  if (opt.markerSet == 0 || opt.markerSet == 1) drawMarkers(cam, markers_[opt.markerSet]);
  drawInstances(cam, instanceCount_, 1.0f, true);
  if (overlay && !overlay->tris.empty()) {
    glBindBuffer(GL_ARRAY_BUFFER, overlayVbo_);
    glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(overlay->tris.size() * sizeof(Vertex)), overlay->tris.data(),
                 GL_STREAM_DRAW);
    drawMesh(cam, overlayVao_, overlayVbo_, overlay->tris.size());
  }
  glBindVertexArray(0);
  glDisable(GL_SCISSOR_TEST);
  glViewport(0, 0, width_, height_);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
}

GlRenderer::TrailColumn& GlRenderer::trailColumn(int x, int width, bool& fresh) {
  for (TrailColumn& c : trailColumns_)
    if (c.x == x && c.width == width) {
      fresh = false;
      return c;
    }
  // Columns this one overlaps hold pixels it is about to draw over.
  std::erase_if(trailColumns_, [&](const TrailColumn& c) { return c.x < x + width && x < c.x + c.width; });
  fresh = true;
  return trailColumns_.emplace_back(TrailColumn{x, width, 0, {}});
}

void GlRenderer::bindCanvas() const {
  glBindFramebuffer(GL_FRAMEBUFFER, canvasFbo_);
  glViewport(0, 0, width_, height_);
}

void GlRenderer::present(int w, int h) {
  if (w == width_ && h == height_) {
    glBindFramebuffer(GL_READ_FRAMEBUFFER, canvasFbo_);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, 0);
    glBlitFramebuffer(0, 0, w, h, 0, 0, w, h, GL_COLOR_BUFFER_BIT, GL_NEAREST);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    return;
  }
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glViewport(0, 0, w, h);
  glDisable(GL_BLEND);
  glUseProgram(blitProg_);
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, canvasTex_);
  glUniform1i(glGetUniformLocation(blitProg_, "uTex"), 0);
  glBindVertexArray(emptyVao_);
  glDrawArrays(GL_TRIANGLES, 0, 3);
  glBindVertexArray(0);
}

void GlRenderer::readCanvasBottomUp(std::vector<std::uint8_t>& rgba) const {
  rgba.resize(static_cast<std::size_t>(width_) * height_ * 4);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, canvasFbo_);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, width_, height_, GL_RGBA, GL_UNSIGNED_BYTE, rgba.data());
  glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
}

void GlRenderer::readCanvas(std::vector<std::uint8_t>& rgba) const {
  readCanvasBottomUp(rgba);
  const std::size_t row = static_cast<std::size_t>(width_) * 4;
  std::vector<std::uint8_t> tmp(row);
  for (int y = 0; y < height_ / 2; ++y) {
    std::uint8_t* a = rgba.data() + row * y;
    std::uint8_t* b = rgba.data() + row * (height_ - 1 - y);
    std::memcpy(tmp.data(), a, row);
    std::memcpy(a, b, row);
    std::memcpy(b, tmp.data(), row);
  }
}

std::string encodePng(int w, int h, const std::vector<std::uint8_t>& rgba) {
  std::string out;
  if (w <= 0 || h <= 0 || rgba.size() < static_cast<std::size_t>(w) * h * 4) return out;
  auto append = [](void* context, void* data, int size) {
    static_cast<std::string*>(context)->append(static_cast<const char*>(data), static_cast<std::size_t>(size));
  };
  if (stbi_write_png_to_func(append, &out, w, h, 4, rgba.data(), w * 4) == 0) out.clear();
  return out;
}

bool writePng(const std::string& path, int w, int h, const std::vector<std::uint8_t>& rgba, std::string* error) {
  const std::string png = encodePng(w, h, rgba);
  if (png.empty()) {
    if (error) *error = "cannot encode " + path + " as PNG";
    return false;
  }
  return writeFileWhole(path, png, error);
}

}  // namespace throng::render
