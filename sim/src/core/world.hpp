#pragma once
// World: the crowd's structure-of-arrays state, under the Crowd facade.
//
// Hot data, read by every phase each step (24 bytes per walker): position,
// velocity, radius, maxSpeed. Warm: jammed flag, preferred speed, goal,
// group, route state (25 bytes). Cold: the stable id (8 bytes), read by the solve only for
// jitter and coincident pairs. Obstacles are a separate set that changes
// rarely; its edge grid is rebuilt when it does.
#include <cstdint>
#include <memory>
#include <vector>

#include "core/wish.hpp"
#include "models/orca/solve.hpp"
#include "neighbors/near_lists.hpp"
#include "throng/crowd.hpp"
#include "geometry/obstacles.hpp"

namespace throng {

/// Scratch rebuilt each step: the agent grid and the new state.
struct StepScratch {
  std::vector<std::int32_t> cellOf, cellStart, sortedIndex;
  std::vector<std::int32_t> slotOf;    // each agent's slot: sortedIndex[slotOf[i]] == i
  std::vector<std::int32_t> previousOrder;  // last step's sortedIndex (placement order)
  std::vector<float> sx, sy;
  GridShape grid;
  std::uint64_t gridVersion = 0;  ///< bumped by every buildGrid
  // The order the solve runs in and its results are kept by: the grid's
  // slots when it was last built (a step with candidate lists builds the
  // grid only when a walker's list fails; a ring's fail together, about
  // one step in 20), split by the pool's shares of agent index where the
  // grid lasts, or agent index itself there when it follows the grid
  // (World::takeOrder). order[slot] is an agent.
  std::vector<std::int32_t> order;
  std::uint64_t orderVersion = 0;      ///< bumped whenever order is taken
  std::uint64_t orderGrid = ~0ull;     ///< the gridVersion order was taken from
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
  std::vector<float> wishX, wishY;     // preferred velocities
  std::vector<std::uint8_t> landing;   // wish lands exactly on the goal
  // The solve's results, by agent index: the step's end reads them in order
  // (by slot, its gather was two thirds of its time on the 100k circle).
  // Walkers near in the grid are mostly near in index, so the threads'
  // writes seldom share a line (dense 10k at 2 threads: the solve as fast).
  std::vector<float> nvx, nvy;         // new velocities
  std::vector<std::uint8_t> njammed;
  // Each walker's neighbours of the step before, a starting bound for its
  // next neighbour scan (never changes a result): a row of hintStride per
  // walker, the count (-1: none known) then the indices.
  std::vector<std::int32_t> hint;
  int hintStride = 0;
  // Candidate lists (agent_step.hpp's design note), in two buffers of
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

  AgentGridView gridView() const;
};

class ThreadPool;

class World {
 public:
  World();
  ~World();

  // hot
  std::vector<float> px, py, vx, vy, radius, maxSpeed;
  // warm
  std::vector<float> prefSpeed;  ///< wish speed; <= 0: maxSpeed
  std::vector<std::uint8_t> jammed, hasGoal;
  std::vector<float> gx, gy;
  std::vector<std::int32_t> group, route, gate;
  // cold
  std::vector<std::uint64_t> id;
  std::uint64_t nextId = 0;

  std::uint64_t step = 0;  ///< steps taken (the jitter counter)
  double time = 0;         ///< simulated seconds
  StepStats stats;

  ObstacleSet obstacles;
  std::vector<std::vector<Waypoint>> routes;
  std::vector<std::int32_t> streamGroups;  // sorted; streamVelocity alongside
  std::vector<Vec2> streamVelocity;

  StepScratch scratch;

  std::size_t size() const { return px.size(); }
  void resize(std::size_t n);
  /// Bumped by every step and host edit; explain() rebuilds its grid only
  /// when it changed (or the perception radius did).
  std::uint64_t version = 0, explainGridVersion = ~0ull;
  float explainGridPerception = -1;
  void erase(const std::vector<std::uint8_t>& remove);  ///< keeps order
  AgentsView view() const;
  /// The stream velocity of a group, or nullptr.
  const Vec2* streamOf(std::int32_t g) const;

  /// The CPU reference step: the phases of crowd.hpp, on `threads` workers.
  /// The caller advances `step` and `time`.
  void stepCpu(const Settings& s, float dt, const std::function<Vec2(const Agent&)>& closure,
               int threads);
  /// Phase 1 (also used by the teaching view): the agent grid.
  void buildGrid(const Settings& s);
  /// Phase 2: the wish of agent i (no closure).
  Vec2 wishOf(std::size_t i, const Settings& s, float dt, bool& landing) const;
  /// Phase 5: commit new velocities, move, land, advance gates.
  void integrate(float dt);
  /// Before the grid: how far agents moved since the last step (for the
  /// candidate lists; resets them when the agent count changed). Calls
  /// `alongside` (if any) over every agent once, in the same pass, chunk
  /// by chunk: the step's wishes.
  void trackMotion(bool lists, const std::function<void(std::size_t, std::size_t)>& alongside);
  /// trackMotion's relative part (StepScratch::MotionTiles), once the
  /// boxes are filled: the spreads, given the step's largest displacement.
  void tileSpreads(double largestStep, int copies);
  /// The solve's order from the grid just built (StepScratch::order):
  /// with `split` > 1 (the pool's size), each thread's share of the slots
  /// holds the agents of its share of agent index, in grid order. For a
  /// grid that lasts (`lasting`) whose agents mostly follow each other in
  /// index order (indicesFollowGrid), agent index order itself.
  void takeOrder(int split, bool lasting);
  /// Whether at least three in four agents are in the same grid cell as
  /// the agent before by index, or in a cell next to it (a ring's walkers
  /// added in turn around it, a block's row by row).
  bool indicesFollowGrid() const;
  /// Makes every list's relative sum unknown (its steps were not counted).
  void forgetRelativeMotion();
  /// Phase 3 on the CPU, first half: walker i's neighbours into ss from its
  /// candidate list, when that proves the answer (returns the count); else
  /// -1, with the bound (squared) a rebuild starts from in `base`. Needs no
  /// grid. `slot`: where its list is kept this step; `hintRow`: the grid
  /// scan's hint (count, then indices); `spread`: the tiles' spreads
  /// this step, or null (MotionTiles).
  int listNeighbors(std::int32_t i, std::int32_t slot, const AgentsView& av, const SolveParams& sp,
                    const std::int32_t* hintRow, const float* spread, bool inListOrder, SolveScratch& ss,
                    float& base);
  /// The second half, after listNeighbors returned -1: rebuilds the list
  /// from the grid (fresh: built from this step's positions), or scans it
  /// (`listed` says which), and keeps the scan's hint. Together, the same
  /// answer as selectNeighbors.
  /// After a step's grid was built for the lists that failed: rebuilds
  /// walker i's list too when it is nearly spent (`base`: the bound its
  /// answer this step gave), so lists fail together. Never changes a result.
  void refreshIfSpent(std::int32_t i, std::int32_t slot, const AgentsView& av, const AgentGridView& gv,
                      const SolveParams& sp, float dt, float base, SolveScratch& spare);
  int gridNeighbors(std::int32_t i, std::int32_t slot, const AgentsView& av, const AgentGridView& gv,
                    const SolveParams& sp, float dt, std::int32_t* hintRow, SolveScratch& ss, float base,
                    bool& listed);
  /// Candidate lists on (the default); off, every walker scans the grid
  /// (tests compare the two).
  bool nearLists = true;
  /// Lists proved by relative motion too (StepScratch::MotionTiles; tests
  /// turn it off to compare).
  bool relativeLists = true;
  /// Batches whose linear programs all end at their starts skip them
  /// (SolveBatch; tests turn it off to compare).
  bool skipFreePrograms = true;
  /// fn over chunks of [0, n), on the step's pool when there is one
  /// (ThreadPool::parallelFor).
  void forEach(std::size_t n, const std::function<void(std::size_t, std::size_t)>& fn, int chunksPerThread = 8);

  Agent agentAt(std::size_t i) const;
  SolveParams solveParams(const Settings& s, float dt) const;
  /// The farthest any walker looks for an obstacle edge: the largest
  /// maxSpeed * obstacleTimeHorizon + radius (0 with no walkers).
  float obstacleReach(const Settings& s) const;

 private:
  std::unique_ptr<ThreadPool> pool_;
};

}  // namespace throng
