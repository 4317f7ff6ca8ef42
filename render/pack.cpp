#include "render/pack.hpp"

namespace throng::render {

void packInstances(const FrameView& f, std::vector<AgentInstance>& out) {
  const std::size_t n = f.px.size();
  out.resize(n);
  for (std::size_t i = 0; i < n; ++i)
    out[i] = packInstance(f.px[i], f.py[i], f.vx[i], f.vy[i], f.radius[i], f.group[i], f.jammed[i]);
}

void markSelection(std::span<AgentInstance> inst, std::ptrdiff_t selected, std::span<const std::size_t> nb) {
  for (std::size_t j : nb)
    if (j < inst.size()) inst[j].flags |= kInstanceNeighbour;
  if (selected >= 0 && static_cast<std::size_t>(selected) < inst.size())
    inst[static_cast<std::size_t>(selected)].flags |= kInstanceSelected;
}

}  // namespace throng::render
