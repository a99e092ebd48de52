% An injective function that misses a point has only infinite models, so
% the conjecture has no finite countermodel; E saturates and shows there
% is no proof.
fof(injective, axiom, ! [X, Y] : (f(X) = f(Y) => X = Y)).
fof(onto, conjecture, ? [X] : f(X) = c).
