#pragma once
// ORCA's teaching view (throng/teaching.hpp), in velocity space round the
// walker: each neighbour's velocity obstacle; each of the solver's lines
// with its permitted side shaded, so the region every line allows is the
// darkest; that region within top speed (empty when the walker is jammed);
// the top-speed circle; a ring round each neighbour read; the wish and the
// chosen velocity.
#include <cstddef>
#include <vector>

#include "core/world.hpp"
#include "throng/settings.hpp"
#include "throng/types.hpp"

namespace throng {

/// The truncated velocity-obstacle cone (a convex polygon in velocity
/// space) for relative position relPos = pB - pA, combined radius, time
/// horizon tau, apex at the neighbour's velocity, legs `legLength` long.
/// Overlapping pairs (|relPos| <= combinedRadius) get the cut-off disc only.
/// Drawing geometry: the solver builds its lines without it.
std::vector<Vec2> velocityObstacle(Vec2 relPos, float combinedRadius, float tau, Vec2 apex, float legLength,
                                   int arcSegments = 16);

/// The neighbour grid's query for walker i (the seed's spatial hash): the
/// cells it scans, columns perceptionRadius wide, the column on each side
/// and the rows within reach; and a ring round every walker found in them.
/// `grid`: the agent grid the solve searched.
void teachGridQuery(const World& w, const AgentGrid& grid, const Settings& s, std::size_t i, TeachingView& view);

/// Adds ORCA's view of walker i to out.teaching, from out's neighbours,
/// lines, wish and choice, the world's state as it was, and the step's
/// scratch (its grid, and the wishes of the last step).
void teachOrca(const World& w, const StepScratch& scratch, const Settings& s, std::size_t i, AgentExplain& out);

}  // namespace throng
