#pragma once
// ORCA on the CPU as the shipped "orca" model runs it: the reference
// (../reference.hpp, one walker at a time) made fast, with the step's solve
// phase and its own take on the first pass.
//
// Design note. The solve is exact and its cost is the neighbour search and
// the linear programs, so the CPU step keeps, beside the world's agent
// grid, what makes both cheap without changing a bit of the answer:
//  - candidate lists (neighbors/near_lists.hpp): each walker's neighbours
//    proved from a list kept across steps; the grid is built only when a
//    list fails. The first pass measures how far everyone moved, globally
//    and per square tile (relative motion: a ring's walkers, walking alike,
//    keep their lists far longer);
//  - the solve's order: the grid's, split by the threads' shares of agent
//    index where the grid lasts, or agent index itself where it follows the
//    grid (takeOrder);
//  - lanes: a batch of up to eight walkers' agent lines and linear programs
//    at a time on AVX2 (lanes.hpp), and batches whose programs all end at
//    their starts skip them (SolveBatch).
// Every one is checked against the plain grid scan, and the whole step
// against OrcaReference, bit for bit (tests/sim).
#include <cstdint>
#include <memory>
#include <vector>

#include "core/model.hpp"
#include "core/world.hpp"
#include "models/orca/reference.hpp"
#include "models/orca/solve.hpp"
#include "neighbors/agents_view.hpp"
#include "neighbors/motion.hpp"
#include "neighbors/near_lists.hpp"

namespace throng {

/// What ORCA keeps across steps on the CPU, beside the world's agent grid
/// (StepScratch::grid, which it builds only when a walker's list fails).
struct OrcaScratch {
  // The order the solve runs in and its results are kept by: the grid's
  // slots when it was last built (a step with candidate lists builds the
  // grid only when a walker's list fails; a ring's fail together, about
  // one step in 20), split by the pool's shares of agent index where the
  // grid lasts, or agent index itself there when it follows the grid
  // (OrcaModel::takeOrder). order[slot] is an agent.
  std::vector<std::int32_t> order;
  std::uint64_t orderVersion = 0;      ///< bumped whenever order is taken
  std::uint64_t orderGrid = ~0ull;     ///< the grid's version order was taken from
  int orderSplit = 0;                  ///< the threads it was split for (1: not split)
  std::vector<std::int32_t> splitAt;   ///< takeOrder's: each block's next slot for each share
  // Walkers whose lists failed while the grid was stale, by slot, with the
  // bound their rebuild starts from; taken once the grid is built.
  std::vector<std::uint8_t> deferred;
  std::vector<float> deferBase;
  int failingSteps = 0;  ///< steps in a row in which over 1/64 of the lists failed
  /// Whether the solve looks for batches of walkers whose linear programs
  /// all end at their starts, and skips those programs (SolveBatch); and
  /// last step's batches and how many of them skipped.
  bool lookForFree = true;
  std::size_t batches = 0, freeBatches = 0;
  // Each walker's neighbours of the step before, a starting bound for its
  // next neighbour scan (never changes a result): a row of hintStride per
  // walker, the count (-1: none known) then the indices.
  std::vector<std::int32_t> hint;
  int hintStride = 0;
  // Candidate lists (neighbors/near_lists.hpp's design note), in two buffers of
  // rows by slot of `order`: a step reads each walker's row from the buffer the
  // step before wrote (at nearRow[i], last step's slot) and writes it at
  // its slot in the other, so both run nearly in order (by agent index the
  // rows, 128 bytes each, were read all over memory). While `order` stays
  // (most steps on a ring) every row is where it was, and the
  // step rewrites it in place: half the rows' memory touched, and no
  // copying of heads. Never change a result.
  struct NearHead {
    float x = 0, y = 0, radius = 0;  ///< where and how wide it was built
    std::int32_t count = -1;  ///< agents; -1 none; below -1: scan the grid that many more steps
    bool fresh = false;       ///< built the step before, not used since
    float rel = 0;            ///< its walker's spreads summed since (MotionTiles); inf: unknown
    double moved = 0;         ///< `moved` when it was built
  };
  std::vector<NearHead> nearHead[2];
  std::vector<std::int32_t> near[2];  // kNearCapacity a row
  std::vector<std::int32_t> nearRow;  // by agent: its row in near[nearFlip], or -1
  int nearFlip = 0;
  int nearTo = 1;  ///< the buffer this step writes: nearFlip itself when in place
  std::uint64_t nearOrderVersion = ~0ull;  ///< the orderVersion near[nearFlip]'s rows were written in
  // Positions at the last step's start, and the running sum over steps of
  // the largest displacement of any agent between two step starts (host
  // edits and other backends' steps included: it bounds how far any agent
  // index's position has moved since a list was built).
  std::vector<float> lastX, lastY;
  double moved = 0;
  // Relative motion, for lists whose neighbours move alike (a ring's walk
  // to its centre): square tiles, and for each step the box of the
  // displacements of the agents that started it in each tile (AgentKin's
  // `tile`). A tile's spread is the diameter of its 3x3 block's box: how
  // much any agent that started the step within `side` of a walker in the
  // tile moved relative to it. A list's head sums its walker's spreads.
  struct MotionTiles {
    TileShape shape;
    double width = 0;  ///< 0: no tiles yet
    float side = 0;    ///< under width by more than the tiles' rounding
    std::vector<float> box;     ///< 4 a tile (TileBoxes), a copy for each of the pool's threads
    std::vector<float> across;  ///< the boxes merged with their left and right
    std::vector<float> spread;  ///< by tile
    bool live = false;  ///< spreads taken this step
    int quiet = 0;      ///< steps left without them (they were no tighter than `moved`)
    bool lists = false;  ///< the last step used the lists (their sums are current)
  } tiles;
  std::vector<AgentKin> kin;  ///< this step's positions, velocities and radii (AgentsView::kin)
  std::size_t nearServed = 0;  ///< walkers the lists answered in the last step
};

class OrcaModel final : public Model {
 public:
  std::string_view name() const override { return "orca"; }
  void trackMotion(StepContext& ctx, const ChunkFn& alongside) override;
  void solve(StepContext& ctx) override;
  void explain(StepContext& ctx, std::size_t i, AgentExplain& out) override;
  void resume() override;

  /// The reference's (OrcaReference::solveParams), with the lanes on where
  /// the CPU has them.
  static SolveParams solveParams(const Settings& s, float dt);

  /// Builds the step's agent grid `grid` over w (and refits the motion tiles to it).
  void buildGrid(const World& w, AgentGrid& grid, const Settings& s);
  /// The first pass: how far agents moved since the last step (for the candidate
  /// lists; resets them when the agent count changed). Calls `alongside`
  /// (if any) over every agent once, in the same pass, chunk by chunk.
  void trackMotion(const World& w, bool lists, const ChunkFn& alongside);
  /// trackMotion's relative part (OrcaScratch::MotionTiles), once the
  /// boxes are filled: the spreads, given the step's largest displacement.
  void tileSpreads(double largestStep, int copies);
  /// The solve's order from the grid just built (OrcaScratch::order):
  /// with `split` > 1 (the pool's size), each thread's share of the slots
  /// holds the agents of its share of agent index, in grid order. For a
  /// grid that lasts (`lasting`) whose agents mostly follow each other in
  /// index order (indicesFollowGrid), agent index order itself.
  void takeOrder(const World& w, const AgentGrid& grid, int split, bool lasting);
  /// Whether at least three in four agents are in the same grid cell as
  /// the agent before by index, or in a cell next to it (a ring's walkers
  /// added in turn around it, a block's row by row).
  bool indicesFollowGrid(const AgentGrid& grid) const;
  /// Makes every list's relative sum unknown (its steps were not counted).
  void forgetRelativeMotion();
  /// The solve phase, first half: walker i's neighbours into ss from its candidate
  /// list, when that proves the answer (returns the count); else -1, with
  /// the bound (squared) a rebuild starts from in `base`. Needs no grid.
  /// `slot`: where its list is kept this step; `hintRow`: the grid scan's
  /// hint (count, then indices); `spread`: the tiles' spreads this step, or
  /// null (MotionTiles).
  int listNeighbors(const World& w, std::int32_t i, std::int32_t slot, const AgentsView& av, const SolveParams& sp,
                    const std::int32_t* hintRow, const float* spread, bool inListOrder, SolveScratch& ss,
                    float& base);
  /// After a step's grid was built for the lists that failed: rebuilds
  /// walker i's list too when it is nearly spent (`base`: the bound its
  /// answer this step gave), so lists fail together. Never changes a result.
  void refreshIfSpent(const World& w, std::int32_t i, std::int32_t slot, const AgentsView& av,
                      const AgentGrid& grid, const SolveParams& sp, float dt, float base, SolveScratch& spare);
  /// The second half, after listNeighbors returned -1: rebuilds the list
  /// from the grid (fresh: built from this step's positions), or scans it
  /// (`listed` says which), and keeps the scan's hint. Together, the same
  /// answer as selectNeighbors.
  int gridNeighbors(const World& w, std::int32_t i, std::int32_t slot, const AgentsView& av, const AgentGrid& grid,
                    const SolveParams& sp, float dt, std::int32_t* hintRow, SolveScratch& ss, float base,
                    bool& listed);

  OrcaScratch scratch;
  /// Candidate lists on (the default); off, every walker scans the grid
  /// (tests compare the two).
  bool nearLists = true;
  /// Lists proved by relative motion too (OrcaScratch::MotionTiles; tests
  /// turn it off to compare).
  bool relativeLists = true;
  /// Batches whose linear programs all end at their starts skip them
  /// (SolveBatch; tests turn it off to compare).
  bool skipFreePrograms = true;
  /// The teaching view is the reference's: one walker, as solveAgent sees it.
  OrcaReference plain;
};

}  // namespace throng
