% `~ ! [X] : F`: not everything is a p, so something is not.
fof(not_all, axiom, ~ ! [X] : p(X)).
fof(goal, conjecture, ? [X] : ~ p(X)).
