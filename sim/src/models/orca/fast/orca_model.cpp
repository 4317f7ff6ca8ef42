// OrcaModel (fast/orca_model.hpp): ORCA's phases on the CPU.
#include "models/orca/fast/orca_model.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <numeric>
#include <utility>

#include "base/lanes.hpp"
#include "base/thread_pool.hpp"
#include "base/vector_memory.hpp"

namespace throng {

namespace {
/// Relative motion's tiles are kTileRanges perception radii wide, or wider
/// so there are at most about n / kAgentsPerTile of them. A width is kept
/// while the best is within a factor of 2 of it: a new width starts every
/// list's relative sum over.
constexpr double kTileRanges = 4;
/// Agents a tile at the least, on average (the spreads cost a little per
/// tile and step, and fewer, wider tiles prove less): chosen by callgrind on
/// the benchmark's circles (docs/engineering.md).
constexpr double kAgentsPerTile = 4;
/// Columns and rows at the most, so tileOf's floats count them exactly.
constexpr double kMaxTilesAcross = 1 << 20;
/// Spreads that average more than kUselessSpread of the largest relative
/// step (twice the largest step) prove little the global bound does not
/// (a crowd that jams every which way): the tiles rest kQuietSteps steps.
constexpr float kUselessSpread = 0.5f;
constexpr int kQuietSteps = 64;
/// Fits the tiles to the agents' bounds; true when their width changed.
bool shapeTiles(OrcaScratch::MotionTiles& t, float minX, float minY, float maxX, float maxY, float perception,
                std::size_t n) {
  const double w = static_cast<double>(maxX) - minX, h = static_cast<double>(maxY) - minY;
  if (!(w >= 0 && h >= 0 && w + h < 1e30) || !(perception >= 0.0f)) {
    const bool had = t.width > 0;
    t.width = 0;
    t.side = 0;
    return had;
  }
  const double most = static_cast<double>(n) / kAgentsPerTile + 16;
  const auto fits = [&](double width, double tiles) {
    return w / width < kMaxTilesAcross && h / width < kMaxTilesAcross &&
           (std::floor(w / width) + 1) * (std::floor(h / width) + 1) <= tiles;
  };
  double width = t.width;
  const double best = std::max({kTileRanges * perception, std::sqrt(w * h / most), 1e-6});
  if (!(width >= best / 2 && width <= best * 2) || !fits(width, 4 * most)) {
    width = best;
    while (!fits(width, most)) width *= 1.25;
  }
  const bool changed = width != t.width;
  t.width = width;
  t.shape = tilesOver(minX, minY, w, h, width, t.side);
  return changed;
}
}  // namespace

void OrcaModel::trackMotion(StepContext& ctx, const ChunkFn& alongside) {
  trackMotion(ctx.state, nearLists && ctx.settings.maxNeighbors > 0, alongside);
}

void OrcaModel::resume() {
  // Lists, hints and the order refer to the agents as this model last saw
  // them: start over (the next pass resets the lists).
  scratch.lastX.clear();
  scratch.order.clear();
  scratch.hint.clear();
  scratch.hintStride = 0;
}

SolveParams OrcaModel::solveParams(const Settings& s, float dt) {
  SolveParams sp = OrcaReference::solveParams(s, dt);
  sp.lineLanes = lanesAvailable();
  return sp;
}

void OrcaModel::buildGrid(const World& w, AgentGrid& g, const Settings& s) {
  OrcaReference::buildGrid(w, g, s);
  if (shapeTiles(scratch.tiles, g.minX, g.minY, g.maxX, g.maxY, s.perceptionRadius, w.size())) forgetRelativeMotion();
}

void OrcaModel::explain(StepContext& ctx, std::size_t i, AgentExplain& out) { plain.explain(ctx, i, out); }

bool OrcaModel::indicesFollowGrid(const AgentGrid& g) const {
  const std::size_t n = g.cellOf.size();
  const std::int32_t cols = g.shape.cols;
  if (n < 2) return false;
  // Cells next to each other in a row, or in the rows above and below, by
  // their numbers (a row's last and the next row's first count too).
  std::size_t follow = 0;
  for (std::size_t i = 1; i < n; ++i) {
    const std::int32_t d = g.cellOf[i] - g.cellOf[i - 1];
    follow += std::abs(d) <= 1 || std::abs(d - cols) <= 1 || std::abs(d + cols) <= 1;
  }
  return 4 * follow >= 3 * (n - 1);
}

void OrcaModel::takeOrder(const World& w, const AgentGrid& g, int split, bool lasting) {
  OrcaScratch& sc = scratch;
  ThreadPool* const pool = w.pool();
  const std::size_t n = g.sortedIndex.size();
  ++sc.orderVersion;
  sc.orderGrid = g.version;
  sc.orderSplit = split;
  // Where the grid lasts and agent index follows it, index order: the
  // arrays by agent index are read in order rather than in short runs (a
  // ring crosses each row of cells in two places, the 100k ring's in runs
  // of about three walkers, a cache miss each), and each thread's share
  // of the order is its share of agent index.
  if (lasting && indicesFollowGrid(g)) {
    sc.order.resize(n);
    std::iota(sc.order.begin(), sc.order.end(), 0);
    return;
  }
  if (split <= 1 || !pool || pool->size() != split || n < 64) {
    sc.order = g.sortedIndex;
    return;
  }
  // The phases by agent index (the step's start and end, the wishes) leave
  // each thread's share of the agents in its core's cache; the solve, in
  // plain grid order, took a share of slots that another thread had
  // written (half a ring's, at 2 threads).
  // A stable partition of the grid's order by share, in blocks of slots
  // counted and then placed in parallel; within a share, grid order.
  const std::size_t threads = static_cast<std::size_t>(split);
  std::vector<std::int32_t> ends(threads);
  for (std::size_t t = 0; t < threads; ++t)
    ends[t] = static_cast<std::int32_t>(pool->shareEnd(static_cast<std::uint32_t>(n), static_cast<int>(t)));
  const auto shareOf = [&ends](std::int32_t i) {
    std::size_t t = 0;
    while (i >= ends[t]) ++t;
    return t;
  };
  constexpr std::size_t kBlock = 64;
  const std::size_t blocks = (n + kBlock - 1) / kBlock;
  std::vector<std::int32_t>& at = sc.splitAt;  // [block][share]: counts, then each one's next slot
  at.assign(blocks * threads, 0);
  const std::int32_t* const sorted = g.sortedIndex.data();
  w.forEach(blocks, [&](std::size_t b, std::size_t e) {
    for (std::size_t k = b * kBlock; k < std::min(n, e * kBlock); ++k) ++at[k / kBlock * threads + shareOf(sorted[k])];
  }, kLightChunks);
  for (std::size_t t = 0; t < threads; ++t) {
    std::int32_t next = t == 0 ? 0 : ends[t - 1];  // share t's agents fill share t's slots
    for (std::size_t b = 0; b < blocks; ++b) next += std::exchange(at[b * threads + t], next);
  }
  sc.order.resize(n);
  std::int32_t* const order = sc.order.data();
  w.forEach(blocks, [&](std::size_t b, std::size_t e) {
    for (std::size_t k = b * kBlock; k < std::min(n, e * kBlock); ++k)
      order[at[k / kBlock * threads + shareOf(sorted[k])]++] = sorted[k];
  }, kLightChunks);
}

void OrcaModel::forgetRelativeMotion() {
  for (auto& heads : scratch.nearHead) {
    for (OrcaScratch::NearHead& h : heads) h.rel = std::numeric_limits<float>::infinity();
  }
}

namespace {
/// A tile's box (TileBoxes) as one vector.
using Box = Float4;
inline Box most(Box a, Box b) { return a > b ? a : b; }
/// Box k of the boxes at `boxes` (4 floats each), read and written where it lies.
inline Box boxAt(const float* boxes, std::size_t k) { return loadU<Box>(boxes + 4 * k); }
inline void setBox(float* boxes, std::size_t k, Box b) { storeU(boxes + 4 * k, b); }
}  // namespace

void OrcaModel::tileSpreads(double largestStep, int copies) {
  OrcaScratch::MotionTiles& t = scratch.tiles;
  const std::size_t cols = static_cast<std::size_t>(t.shape.cols), rows = static_cast<std::size_t>(t.shape.rows);
  const std::size_t tiles = cols * rows;
  float* const box = t.box.data();
  // The threads' boxes into the first.
  for (std::size_t c = 1; c < static_cast<std::size_t>(copies); ++c) {
    for (std::size_t k = 0; k < tiles; ++k) setBox(box, k, most(boxAt(box, k), boxAt(box, c * tiles + k)));
  }
  // Each tile's block: rows of three, then columns of three.
  t.across.resize(4 * tiles);
  float* const across = t.across.data();
  for (std::size_t r = 0; r < rows; ++r) {
    const float* const row = box + 4 * r * cols;
    float* const out = across + 4 * r * cols;
    for (std::size_t c = 0; c < cols; ++c) {
      Box b = boxAt(row, c);
      if (c > 0) b = most(b, boxAt(row, c - 1));
      if (c + 1 < cols) b = most(b, boxAt(row, c + 1));
      setBox(out, c, b);
    }
  }
  t.spread.resize(tiles);
  double sum = 0;
  std::size_t used = 0;
  for (std::size_t k = 0; k < tiles; ++k) {
    Box b = boxAt(across, k);
    if (k >= cols) b = most(b, boxAt(across, k - cols));
    if (k + cols < tiles) b = most(b, boxAt(across, k + cols));
    const float w = b[0] + b[1], h = b[2] + b[3];
    // Rounding: the sums are exact or within an ulp, the root and squares
    // within a few.
    t.spread[k] = w >= 0.0f ? std::sqrt(w * w + h * h) * (1.0f + 1e-5f) : 0.0f;
    if (box[4 * k] + box[4 * k + 1] >= 0.0f) {  // agents started in it
      sum += t.spread[k];
      ++used;
    }
  }
  t.live = true;
  if (used > 0 && sum > kUselessSpread * 2 * largestStep * static_cast<double>(used)) t.quiet = kQuietSteps;
}

void OrcaModel::trackMotion(const World& w, bool lists, const ChunkFn& alongside) {
  OrcaScratch& sc = scratch;
  const std::size_t n = w.size();
  ThreadPool* const pool = w.pool();
  const float *const px = w.px.data(), *const py = w.py.data(), *const vx = w.vx.data(), *const vy = w.vy.data();
  const float* const radius = w.radius.data();
  bool reset = sc.lastX.size() != n || sc.nearRow.size() != n;
  const bool pass = !reset;  // over the agents, taking each one's move
  sc.kin.resize(n);
  OrcaScratch::MotionTiles& tiles = sc.tiles;
  tiles.live = false;
  if (!reset) {
    bool relative = lists && relativeLists && tiles.width > 0;
    if (relative && tiles.quiet > 0) {
      --tiles.quiet;
      relative = false;
    }
    // Boxes start empty, one set for each thread.
    const int copies = pool ? pool->size() : 1;
    const std::size_t boxFloats =
        relative ? 4 * static_cast<std::size_t>(tiles.shape.cols) * static_cast<std::size_t>(tiles.shape.rows) : 0;
    if (relative) {
      tiles.box.assign(boxFloats * static_cast<std::size_t>(copies), -std::numeric_limits<float>::infinity());
    }
    // The largest displacement, squared in double (in float, moves below
    // 1e-19 would round off), as bits (non-negative doubles order as their
    // bits; NaN above all), so chunks combine in any order.
    std::atomic<std::uint64_t> largest{0};
    const bool lanes = lanesAvailable();
    w.forEach(n, [&](std::size_t b, std::size_t e) {
      if (alongside) alongside(b, e);
      const int self = pool ? pool->currentThread() : 0;
      const TileBoxes boxes{tiles.shape, relative ? &tiles.box[boxFloats * static_cast<std::size_t>(self)] : nullptr};
      const double m = (lanes ? trackMotionBatch : trackMotionOneByOne)(&px[b], &py[b], &vx[b], &vy[b], &radius[b],
                                                                  &sc.lastX[b], &sc.lastY[b], &sc.kin[b], e - b,
                                                                  relative ? &boxes : nullptr);
      std::uint64_t bits;
      std::memcpy(&bits, &m, sizeof bits);
      std::uint64_t seen = largest.load(std::memory_order_relaxed);
      while (bits > seen && !largest.compare_exchange_weak(seen, bits, std::memory_order_relaxed)) {
      }
    }, kLightChunks);
    const std::uint64_t bits = largest.load();
    double step;
    std::memcpy(&step, &bits, sizeof step);
    sc.moved += std::sqrt(step) * (1 + 1e-5);
    reset = !std::isfinite(sc.moved);
    if (relative && !reset) tileSpreads(std::sqrt(step), copies);
  }
  if (reset) {
    if (alongside && !pass) w.forEach(n, alongside, kLightChunks);
    for (std::size_t i = 0; i < n; ++i) sc.kin[i] = {px[i], py[i], vx[i], vy[i], radius[i]};
    sc.lastX = w.px;
    sc.lastY = w.py;
    sc.moved = 0;
    sc.nearRow.assign(n, -1);
    for (int b = 0; b < 2; ++b) {
      sc.nearHead[b].resize(n);
      sc.near[b].resize(n * kNearCapacity);
    }
  }
}

namespace {
/// Walkers whose neighbours are known, solved a few at a time: their agent
/// lines are built eight pairs at a time across the batch
/// (batchAgentLines), so walkers with few neighbours fill the lanes (on a
/// ring, four neighbours filled half of a group of eight; dense, ten took
/// two groups). The same lines, so the same results, as one walker at a
/// time, which is what it does where lines are not built in lanes.
template <class Keep>
class SolveBatch {
 public:
  static constexpr int kWalkers = 8;
  /// lookForFree: look for batches whose programs all end at their
  /// starts (OrcaScratch::lookForFree).
  SolveBatch(const AgentsView& a, const ObstacleView& ov, const SolveParams& sp, const Keep& keep, bool lookForFree)
      : a_(a), ov_(ov), sp_(sp), keep_(keep), lookForFree_(lookForFree) {}
  /// Batches flushed, and how many of them had their programs skipped.
  int batches() const { return batches_; }
  int freeBatches() const { return free_; }
  /// Where the next walker's neighbours go (neighbors, neighborCount).
  SolveScratch& next() {
    ss_[fill_].fromList = false;
    return ss_[fill_];
  }
  /// Takes the walker whose neighbours next() holds; keep(i, velocity, ok)
  /// gets its result by flush() at the latest. Forced inline: a call's
  /// arguments and spills would cost instructions for every walker.
  [[gnu::always_inline]] void add(std::int32_t i, Vec2 wish) {
    SolveScratch& s = ss_[fill_];
    // One at a time: without lanes, and under the envelope a wish outside
    // it (solved with it at once, solveWithinEnvelope).
    if (!sp_.lineLanes || sp_.rightOfWay > 0.0f || (envelopeOf(a_, sp_, i).accel > 0.0f && !withinEnvelope(a_, sp_, i, wish))) {
      who_[fill_] = i;
      if (s.fromList) orderListed(fill_);
      Vec2 out;
      const bool ok = solveWithinEnvelope(a_, ov_, sp_, i, wish, out, s);
      keep_(i, out, ok);
      return;
    }
    obstacleLinesOf(a_, ov_, sp_, i, s);
    who_[fill_] = i;
    wish_[fill_] = wish;
    if (++fill_ == kWalkers) flush();
  }
  void flush() {
    if (fill_ == 0) return;
    // The batch's pairs, queued in one call rather than one a walker; then
    // its linear programs in lanes (what solveWithLines does one walker at
    // a time), and each jammed walker leans toward its wish on its own.
    const std::int32_t* neighbors[kWalkers];
    int neighborCounts[kWalkers], counts[kWalkers], obstacleLines[kWalkers];
    Line* agentLinesAt[kWalkers];  // where each walker's agent lines go
    const Line* lines[kWalkers];
    float speeds[kWalkers];
    Vec2 outs[kWalkers];
    bool withObstacles = false;
    bool anyList = false;
    for (int w = 0; w < fill_; ++w) {
      SolveScratch& s = ss_[w];
      withObstacles |= s.obstacleLineCount > 0;
      anyList |= s.fromList;
      neighbors[w] = s.neighbors;
      neighborCounts[w] = s.neighborCount;
      speeds[w] = a_.maxSpeed[who_[w]];
    }
    // Walkers whose lists stand in for their neighbours queue the lists'
    // pairs, and the lanes tell which are in range (a ring's lists hold
    // few more than its neighbours, so the lanes' test is cheaper than
    // picking them out); with obstacle lines, whose programs run (below),
    // their neighbours are found first.
    unsigned fromLists = 0, unfiltered = 0;  // bit w: walker w's list stands in (SolveScratch::fromList)
    for (int w = 0; w < fill_ && anyList; ++w) {
      if (!ss_[w].fromList) continue;
      fromLists |= 1u << w;
      if (withObstacles) {
        keepInRange(w, nullptr);
        neighborCounts[w] = ss_[w].neighborCount;
      } else {
        neighbors[w] = ss_[w].list;
        unfiltered |= 1u << w;
      }
    }
    // Without obstacle lines each walker's agent lines are all its lines,
    // so they stay where they are built, in pair order (walker after
    // walker): eight whole lines at a time, not each to its walker's own.
    int pairs;
    if (withObstacles) {
      for (int w = 0; w < fill_; ++w) agentLinesAt[w] = ss_[w].lines + ss_[w].obstacleLineCount;
      pairs = queueBatchPairs(fill_, neighbors, neighborCounts, agentLinesAt, walkerOf_, others_, outs_);
      for (int m = pairs; m % 8 != 0; ++m) outs_[m] = &spare_;
    } else {
      pairs = queueBatchPairs(fill_, neighbors, neighborCounts, nullptr, walkerOf_, others_, nullptr);
      for (int w = 0, at = 0; w < fill_; at += neighborCounts[w++]) agentLinesAt[w] = packed_ + at;
    }
    const bool look = lookForFree_ && !withObstacles;
    const unsigned broken =
        batchAgentLines(a_, who_, fill_, walkerOf_, others_, pairs, sp_.invTimeHorizon, sp_.invDt, outs_,
                        look ? wish_ : nullptr, speeds, outs, withObstacles ? nullptr : packed_, unfiltered,
                        sp_.perceptionRadiusSq, inRange_);
    // Where no walker's start breaks a line, each program ends there (a
    // ring's batches, all of them: its walkers make room long before any
    // line binds), and the programs are skipped.
    ++batches_;
    if (broken != 0 || !look) {
      // The programs read the lines nearest first.
      for (int w = 0; w < fill_ && fromLists != 0; ++w) {
        if ((fromLists >> w & 1u) == 0) continue;
        if (unfiltered >> w & 1u) keepInRange(w, agentLinesAt[w]);
        SolveScratch& s = ss_[w];
        orderNeighbors(a_, Vec2{a_.px[who_[w]], a_.py[who_[w]]}, s.neighbors, s.neighborCount, agentLinesAt[w]);
      }
      for (int w = 0; w < fill_; ++w) {
        SolveScratch& s = ss_[w];
        s.lineCount = s.obstacleLineCount + s.neighborCount;
        lines[w] = withObstacles ? s.lines : agentLinesAt[w];
        counts[w] = s.lineCount;
        obstacleLines[w] = s.obstacleLineCount;
      }
      const unsigned jammed = batchSolveVelocities(lines, counts, obstacleLines, speeds, wish_, fill_, outs);
      for (int w = 0; w < fill_; ++w) keepWithin(w, outs[w], (jammed >> w & 1u) == 0, false);
    } else {
      for (int w = 0; w < fill_; ++w) keepWithin(w, outs[w], true, (unfiltered >> w & 1u) != 0);
      ++free_;
    }
    fill_ = 0;
  }

 private:
  /// keep(walker w, velocity, ok) for a velocity the batch found without
  /// the kinematic envelope: one outside it is solved again with it
  /// (solveWithinEnvelope's second part). `unfiltered`: w's list still
  /// stands in for its neighbours (a free batch's).
  void keepWithin(int w, Vec2 velocity, bool ok, bool unfiltered) {
    const std::int32_t i = who_[w];
    if (envelopeOf(a_, sp_, i).accel > 0.0f && !withinEnvelope(a_, sp_, i, velocity)) {
      if (unfiltered) orderListed(w);
      ok = envelopeSolve(a_, ov_, sp_, i, wish_[w], velocity, ss_[w]);
    }
    keep_(i, velocity, ok);
  }

  /// Walker w's neighbours from the list that stands in for them, nearest
  /// first, as a linear program reads them.
  void orderListed(int w) {
    SolveScratch& s = ss_[w];
    const std::int32_t i = who_[w];
    keepInRange(w, nullptr);
    orderNeighbors(a_, Vec2{a_.px[i], a_.py[i]}, s.neighbors, s.neighborCount, s.lines);
  }

  /// Walker w's neighbours from its list (SolveScratch::fromList): those
  /// in range, in the list's order, as inRangeFromList gives them; with
  /// `lines` (its list's agent lines, in pair order in packed_), those
  /// batchAgentLines found in range, moving their lines along.
  void keepInRange(int w, Line* lines) {
    SolveScratch& s = ss_[w];
    if (!lines) {
      const std::int32_t i = who_[w];
      s.neighborCount = inRangeFromList(a_, Vec2{a_.px[i], a_.py[i]}, sp_.perceptionRadiusSq, s.list,
                                        s.neighborCount, s.neighbors);
    } else {
      const int at = static_cast<int>(lines - packed_);
      int kept = 0;
      for (int m = 0; m < s.neighborCount; ++m) {
        if ((inRange_[(at + m) >> 3] >> ((at + m) & 7) & 1u) == 0) continue;
        lines[kept] = lines[m];
        s.neighbors[kept++] = s.list[m];
      }
      s.neighborCount = kept;
    }
  }

  static constexpr int kPairs = kWalkers * kMaxNeighbors + 8;
  const AgentsView& a_;
  const ObstacleView& ov_;
  const SolveParams& sp_;
  const Keep& keep_;
  SolveScratch ss_[kWalkers];
  std::int32_t who_[kWalkers];
  Vec2 wish_[kWalkers];
  int fill_ = 0;
  const bool lookForFree_;
  int batches_ = 0, free_ = 0;
  std::int32_t walkerOf_[kPairs], others_[kPairs];
  Line* outs_[kPairs];
  Line spare_;
  Line packed_[kPairs];  ///< a batch's agent lines in pair order, when it has no obstacle lines
  std::uint8_t inRange_[kPairs / 8 + 1];  ///< batchAgentLines's, with walkers that queued lists
};

/// How long a candidate list's skin is, in steps at the walker's top speed:
/// for a list around the whole range (fewer than k in it, as on a ring),
/// and for one around the k-th neighbour (a crowd). A longer skin fails
/// less often but lists more; a dense crowd's lists overflow kNearCapacity
/// at 8. Chosen by callgrind on the benchmark's 10k circle and dense crowd
/// (docs/engineering.md).
constexpr float kNearSkinSteps = 8, kNearSkinStepsCrowd = 4;
/// Steps a walker takes the grid scan before it tries a list again, after
/// its list overflowed, or failed the step after it was built (everyone
/// moving further per step than the skin allows, as while a walker is
/// dragged about: a rebuild every step would cost more than the scan).
constexpr std::int32_t kNearBackoff = 8;
/// A list whose proof has less than this fraction of its skin left is
/// rebuilt with the failing ones (refreshIfSpent).
constexpr float kSpentSkin = 0.5f;
/// How far a walker now at p has moved since its list `h` was built, and
/// every other agent at most (`moved`: OrcaScratch's running sum). In float
/// (a double square root here is dear: it runs for every walker and step);
/// the absolute term covers squares that underflow (moves below 1e-19).
inline void movesSince(const OrcaScratch::NearHead& h, Vec2 p, double moved, float& own, float& others) {
  own = (p - Vec2{h.x, h.y}).length() * (1.0f + 1e-6f) + 2e-19f;
  others = static_cast<float>(moved - h.moved);
}
/// The head of a walker that has no list yet.
constexpr OrcaScratch::NearHead kNoList{};
}  // namespace

// Forced inline into the solve's loop, its only caller: a call's arguments
// and spills would cost instructions for every walker.
[[gnu::always_inline]] inline int OrcaModel::listNeighbors(const World& w, std::int32_t i, std::int32_t slot,
                                                          const AgentsView& av, const SolveParams& sp,
                                                          const std::int32_t* hintRow, const float* spread,
                                                          bool inListOrder, SolveScratch& ss, float& base) {
  OrcaScratch& sc = scratch;
  const Vec2 p{w.px[i], w.py[i]};
  const int k = std::min(sp.maxNeighbors, kMaxNeighbors);
  const int from = sc.nearFlip, to = sc.nearTo;
  const std::int32_t row = sc.nearRow[i];
  // Read where it is, not copied; in place (to == from) row is slot, and
  // head and out are one.
  const OrcaScratch::NearHead& head = row >= 0 ? sc.nearHead[from][row] : kNoList;
  OrcaScratch::NearHead& out = sc.nearHead[to][slot];
  std::int32_t* const list = sc.near[to].data() + static_cast<std::size_t>(slot) * kNearCapacity;
  if (&out != &head) {
    sc.nearRow[i] = slot;
    out = head;
  }
  // An upper bound of the k-th distance (squared): the k-th of any k agents.
  base = sp.perceptionRadiusSq;
  if (head.count >= 0) {
    float own, others, reachSq;
    movesSince(head, p, sc.moved, own, others);
    if (spread) {
      out.rel = (head.rel + spread[av.kin[i].tile]) * (1.0f + 1e-6f);  // (the sum's rounding)
      reachSq = listReachSq(head.radius, own, others, sc.tiles.side, out.rel);
    } else {
      out.rel = std::numeric_limits<float>::infinity();  // a step the tiles did not see
      reachSq = nearReachSq(head.radius, own, others);
    }
    const std::int32_t* const listed = sc.near[from].data() + static_cast<std::size_t>(row) * kNearCapacity;
    if (inListOrder && head.count < k && sp.perceptionRadiusSq <= reachSq) {
      // Everyone listed in range is a neighbour: no keys, no sort (a ring's
      // walkers, nearly all of them); the list stays as it was, and stands
      // in for the neighbours: the batch tells which listed agents are in
      // range as it builds their lines (SolveBatch::flush).
      if (list != listed) std::copy(listed, listed + head.count, list);
      out.fresh = false;
      ss.fromList = true;
      ss.list = list;
      return head.count;
    }
    int found;
    const int got = nearestFromList(av, p, sp.perceptionRadiusSq, k, listed, head.count, reachSq, list,
                                    ss.neighbors, base, found);
    if (got >= 0) {
      out.fresh = false;
      return got;
    }
    if (head.fresh) out.count = -kNearBackoff;  // base: the list's k-th when it has k in range
  } else if (head.count < -1) {
    ++out.count;
  } else if (hintRow[0] >= k) {
    // No list yet: the hint's agents at today's positions. (The hint row is
    // read only off the list's path: by agent index, it is a cache miss per
    // walker, a fifth of the neighbour search's time by samples.)
    std::uint64_t keys[kMaxNeighbors];
    const std::uint64_t farthest = hintBound(av, p, i, hintRow + 1, k, keys);
    const float d = floatFromBits(static_cast<std::uint32_t>(farthest >> 32));  // NaN when not a bound
    if (d < base) base = d;
  }
  return -1;
}

void OrcaModel::refreshIfSpent(const World& w, std::int32_t i, std::int32_t slot, const AgentsView& av,
                               const AgentGrid& grid, const SolveParams& sp, float dt, float base,
                               SolveScratch& spare) {
  OrcaScratch& sc = scratch;
  const OrcaScratch::NearHead& h = sc.nearHead[sc.nearTo][slot];
  if (h.count < 0) return;
  float own, others;
  movesSince(h, Vec2{w.px[i], w.py[i]}, sc.moved, own, others);
  const float reach = std::sqrt(listReachSq(h.radius, own, others, sc.tiles.side, h.rel));
  const float needed = std::sqrt(base);
  if (!(reach - needed < kSpentSkin * (h.radius - needed))) return;
  std::int32_t hint[kMaxNeighbors + 1] = {-1};
  bool listed;
  gridNeighbors(w, i, slot, av, grid, sp, dt, hint, spare, base, listed);
}

int OrcaModel::gridNeighbors(const World& w, std::int32_t i, std::int32_t slot, const AgentsView& av,
                             const AgentGrid& grid, const SolveParams& sp, float dt, std::int32_t* hintRow,
                             SolveScratch& ss, float base, bool& listed) {
  OrcaScratch& sc = scratch;
  const AgentGridView gv = grid.view();
  const Vec2 p{w.px[i], w.py[i]};
  const int k = std::min(sp.maxNeighbors, kMaxNeighbors);
  OrcaScratch::NearHead& out = sc.nearHead[sc.nearTo][slot];
  std::int32_t* const list = sc.near[sc.nearTo].data() + static_cast<std::size_t>(slot) * kNearCapacity;
  listed = true;
  if (out.count >= -1) {
    // (Re)build: everyone within that bound plus the skin.
    const float reach = std::sqrt(base);
    const float steps = base < sp.perceptionRadiusSq ? kNearSkinStepsCrowd : kNearSkinSteps;
    const float radius = reach + std::max(steps * dt * w.maxSpeed[i], 1e-3f * reach);
    std::uint64_t keys[kNearCapacity];
    const int count = sp.lineLanes ? gatherNearInLanes(gv, p, i, radius, keys, kNearCapacity)
                                    : gatherNear(gv, p, i, radius, keys, kNearCapacity);
    if (count >= 0) {
      out = {p.x, p.y, radius, count, true, 0.0f, sc.moved};
      int found;
      float kth;
      const int got = nearestFromKeys(keys, count, sp.perceptionRadiusSq, k, nearReachSq(radius, 0, 0), list,
                                      ss.neighbors, kth, found);
      if (got >= 0) return got;
    } else {
      // Too many around: without a bound below the range, the next step
      // may have one; with it, this crowd is too packed for now.
      out.count = base < sp.perceptionRadiusSq ? -kNearBackoff : -1;
    }
  }
  listed = false;
  const int got = selectNeighbors(gv, av, p, i, sp.perceptionRadiusSq, sp.maxNeighbors, ss.neighbors,
                                  ss.neighborDistSq, hintRow + 1, hintRow[0], grid.slotOf[i]);
  // The grid scan's hint for next time (the lists need none).
  hintRow[0] = got;
  std::copy(ss.neighbors, ss.neighbors + got, hintRow + 1);
  return got;
}

void OrcaModel::solve(StepContext& ctx) {
  const World& w = ctx.state;
  const Settings& s = ctx.settings;
  const float dt = ctx.dt;
  const std::size_t n = w.size();
  OrcaScratch& sc = scratch;
  AgentGrid& grid = ctx.scratch.grid;
  ThreadPool& pool = *w.pool();
  const bool lists = nearLists && s.maxNeighbors > 0;
  SolveParams sp = solveParams(s, dt);
  StepBuffers& out = ctx.scratch.buffers;
  sp.wishX = out.wishX.data();
  sp.wishY = out.wishY.data();
  const float *const px = w.px.data(), *const py = w.py.data();
  const int want = pool.size();

  // Steps without the lists leave their sums behind.
  if (lists && !sc.tiles.lists) forgetRelativeMotion();
  sc.tiles.lists = lists;
  // A crowd whose lists fail somewhere every step (a dense one) takes the
  // grid first, in one pass: deferring its failures to a second pass
  // costs it more than it saves.
  const bool gridFresh = !lists || sc.order.size() != n || sc.failingSteps >= 2;
  if (gridFresh) buildGrid(w, grid, s);
  // The solve's order: split by the threads' shares where the grid lasts
  // (a crowd that builds it every step would pay the split every step),
  // as it may on the first step with lists.
  const bool lasting = lists && (!gridFresh || sc.order.size() != n);
  const int split = lasting ? want : 1;
  if ((sc.orderGrid != grid.version || sc.orderSplit != split) && grid.sortedIndex.size() == n)
    takeOrder(w, grid, split, lasting);
  if (!w.obstacles.vertices.empty() && n > 0) ctx.obstacles.fitToReach(OrcaReference::obstacleReach(w, s));

  // Neighbours, then ORCA, in the grid's order for locality; writes the
  // new velocities by agent.
  AgentsView av = w.view();
  av.kin = sc.kin.data();  // filled by trackMotion
  const ObstacleView ov = w.obstacles.view();
  const int stride = std::clamp(s.maxNeighbors, 0, kMaxNeighbors) + 1;
  if (sc.hintStride != stride || sc.hint.size() != n * static_cast<std::size_t>(stride)) {
    sc.hintStride = stride;
    sc.hint.assign(n * static_cast<std::size_t>(stride), -1);
  }
  if (!gridFresh) {
    sc.deferred.resize(n);
    sc.deferBase.resize(n);
  }
  // The arrays the solve reads and writes, as plain pointers copied into
  // each share's locals: the byte stores below (jammed flags) may alias
  // anything, so pointers read through `sc` would be loaded again after
  // every one of them.
  struct SolveArrays {
    const std::int32_t* order;
    std::int32_t* hint;
    std::uint8_t* deferred;
    float* deferBase;
    const float *wishX, *wishY;
    float *nvx, *nvy;
    std::uint8_t* njammed;
  };
  const SolveArrays arrays{sc.order.data(),    sc.hint.data(),  sc.deferred.data(), sc.deferBase.data(),
                           out.wishX.data(),   out.wishY.data(), out.nvx.data(),     out.nvy.data(),
                           out.njammed.data()};
  const auto hintRow = [hint = arrays.hint, stride](std::int32_t i) {
    return hint + static_cast<std::size_t>(i) * stride;
  };
  const auto keep = [nvx = arrays.nvx, nvy = arrays.nvy, njammed = arrays.njammed](std::int32_t i, Vec2 out,
                                                                                    bool ok) {
    nvx[i] = out.x;
    nvy[i] = out.y;
    njammed[i] = ok ? 0 : 1;
  };
  const auto wish = [wishX = arrays.wishX, wishY = arrays.wishY](std::int32_t i) {
    return Vec2{wishX[i], wishY[i]};
  };
  // In place when the rows were written in this step's order.
  sc.nearTo = sc.nearOrderVersion == sc.orderVersion ? sc.nearFlip : sc.nearFlip ^ 1;
  std::atomic<std::size_t> served{0}, failing{0}, batchesFlushed{0}, freeBatches{0};
  const bool lookForFree = skipFreePrograms && sc.lookForFree;
  // Neighbours in their list's order where a linear program is unlikely to
  // read them (orderNeighbors orders them when one does): with lanes, while
  // batches are free.
  const bool inListOrder = lookForFree && sp.lineLanes;
  const AgentGridView gv = grid.view();  // this step's only when gridFresh
  pool.parallelFor(n, [&](std::size_t b, std::size_t e) {
    const auto keepHere = keep;
    const auto hintHere = hintRow;
    const auto wishHere = wish;
    const std::int32_t* const order = arrays.order;
    std::uint8_t* const deferred = arrays.deferred;
    float* const deferBase = arrays.deferBase;
    const float* const spread = sc.tiles.live ? sc.tiles.spread.data() : nullptr;
    SolveBatch batch(av, ov, sp, keepHere, lookForFree);
    std::size_t fromLists = 0, failed = 0;
    for (std::size_t slot = b; slot < e; ++slot) {
      const std::int32_t i = order[slot];
      std::int32_t* const row = hintHere(i);
      const std::int32_t at = static_cast<std::int32_t>(slot);
      SolveScratch& ss = batch.next();
      if (!lists) {
        ss.neighborCount = selectNeighbors(gv, av, Vec2{px[i], py[i]}, i, sp.perceptionRadiusSq, sp.maxNeighbors,
                                           ss.neighbors, ss.neighborDistSq, row + 1, row[0], grid.slotOf[i]);
        row[0] = ss.neighborCount;
        std::copy(ss.neighbors, ss.neighbors + ss.neighborCount, row + 1);
        batch.add(i, wishHere(i));
        continue;
      }
      float base;
      int got = listNeighbors(w, i, at, av, sp, row, spread, inListOrder, ss, base);
      bool listed = true;
      if (!gridFresh) {
        deferred[slot] = got < 0;
        deferBase[slot] = base;  // a refresh (below) starts from it too
      }
      if (got < 0) {
        ++failed;
        if (!gridFresh) continue;  // after the grid is built
        got = gridNeighbors(w, i, at, av, grid, sp, dt, row, ss, base, listed);
      }
      ss.neighborCount = got;
      fromLists += listed;
      batch.add(i, wishHere(i));
    }
    batch.flush();
    served += fromLists;
    failing += failed;
    batchesFlushed += static_cast<std::size_t>(batch.batches());
    freeBatches += static_cast<std::size_t>(batch.freeBatches());
  }, lookForFree ? kLightChunks : 8);
  sc.failingSteps = failing > n / 64 ? sc.failingSteps + 1 : 0;
  if (!gridFresh && failing > 0) {
    buildGrid(w, grid, s);
    // Lists that fail at their own pace (a ring's, with relative motion)
    // would build the grid every step: those about to are rebuilt with
    // the ones that failed, so the next build waits for most of a list's
    // life.
    const bool refresh = sc.tiles.live;
    pool.parallelFor(n, [&](std::size_t b, std::size_t e) {
      const auto keepHere = keep;
      const auto hintHere = hintRow;
      const auto wishHere = wish;
      const std::int32_t* const order = arrays.order;
      const std::uint8_t* const deferred = arrays.deferred;
      const float* const deferBase = arrays.deferBase;
      SolveBatch batch(av, ov, sp, keepHere, lookForFree);
      std::size_t fromLists = 0;
      for (std::size_t slot = b; slot < e; ++slot) {
        if (!deferred[slot]) {
          if (refresh) {
            refreshIfSpent(w, order[slot], static_cast<std::int32_t>(slot), av, grid, sp, dt, deferBase[slot],
                           batch.next());
          }
          continue;
        }
        const std::int32_t i = order[slot];
        SolveScratch& ss = batch.next();
        bool listed;
        ss.neighborCount = gridNeighbors(w, i, static_cast<std::int32_t>(slot), av, grid, sp, dt, hintHere(i), ss,
                                         deferBase[slot], listed);
        fromLists += listed;
        batch.add(i, wishHere(i));
      }
      batch.flush();
      served += fromLists;
      batchesFlushed += static_cast<std::size_t>(batch.batches());
      freeBatches += static_cast<std::size_t>(batch.freeBatches());
    });
  }
  // The rows just written are next step's to read, in this step's order.
  sc.nearFlip = lists ? sc.nearTo : sc.nearFlip;
  sc.nearOrderVersion = lists ? sc.orderVersion : ~0ull;
  sc.nearServed = served;
  // Free batches are looked for while a quarter of this step's were, and
  // probed one step in 16 otherwise (a dense crowd has none, and looking
  // would cost it at every step).
  sc.batches = batchesFlushed;
  sc.freeBatches = freeBatches;
  sc.lookForFree = freeBatches * 4 >= batchesFlushed || (w.step + 1) % 16 == 0;
}

}  // namespace throng
