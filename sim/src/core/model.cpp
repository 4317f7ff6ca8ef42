// Model's default first pass (core/model.hpp): a pass for the wishes alone.
#include "core/model.hpp"

#include "base/thread_pool.hpp"
#include "core/world.hpp"

namespace throng {

void Model::trackMotion(StepContext& ctx, const ChunkFn& alongside) {
  if (alongside) ctx.state.forEach(ctx.state.size(), alongside, kLightChunks);
}

}  // namespace throng
