% Squares are the identity, so the group is commutative (CNF, equality,
% the goal as negated_conjecture clauses).
cnf(left_identity, axiom, mult(e, X) = X).
cnf(left_inverse, axiom, mult(inv(X), X) = e).
cnf(associativity, axiom, mult(mult(X, Y), Z) = mult(X, mult(Y, Z))).
cnf(squares, hypothesis, mult(X, X) = e).
cnf(prove_commutes, negated_conjecture, mult(a, b) != mult(b, a)).
