// Whether a solver folds each passive vertex whose only predecessor is an active vertex (an MDP's
// choice vertex, as the PRISM importer builds them) into that vertex's edge, and works on the MDP
// of the remaining vertices. Folding never changes an answer (docs/performance.md); it changes how
// much memory a sweep touches. automatic: fold when the model is large (and has the shape the
// solver folds).
#pragma once

namespace playtest {

enum class ChoiceFolding { automatic, never, always };

}  // namespace playtest
