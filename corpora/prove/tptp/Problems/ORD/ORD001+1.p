% A strict partial order is asymmetric. Axioms/ is found at the root of the
% tree, two directories up, and only two of its formulas are selected.
include('Axioms/ORD001+0.ax', [irreflexive, transitive]).
fof(asymmetric, conjecture, ! [X, Y] : (less(X, Y) => ~ less(Y, X))).
