% Distinct objects are pairwise unequal: "Alice" = "Bob" is false.
fof(names, axiom, ! [X] : (person(X) <=> (X = "Alice" | X = "Bob"))).
fof(two, conjecture, ? [X, Y] : (person(X) & person(Y) & X != Y)).
