% Pelletier 18: ? [Y] : ! [X] : (f(Y) => f(X)), valid.
fof(pel18, conjecture, ? [Y] : ! [X] : (f(Y) => f(X))).
