// Model's default first pass (core/model.hpp): a pass for the wishes alone.
#include "core/model.hpp"

#include "base/thread_pool.hpp"
#include "core/world.hpp"

namespace throng {

void Model::trackMotion(StepContext& ctx, const ChunkFn& alongside) {
  if (alongside) ctx.world.forEach(ctx.world.size(), alongside, kLightChunks);
}

}  // namespace throng
