/* `~ ? [X] : F` is the negation of an existential, not F: here the axiom
   says nothing is a p, so ~ p(a) follows; read as p(X) it would refute. */
fof(none, axiom, ~ ? [X] : p(X)).
fof(goal, conjecture, ~ p(a)).
