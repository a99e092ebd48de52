% The judge's Prolog runtime, loaded once into every scryer machine before any
% task. It supplies the SWI-Prolog list and aggregation predicates that scryer
% 0.10 lacks (so a rule that runs in SWI runs here) and the evaluation driver.
% Everything here is trusted code: hypotheses reach the engine only after the
% whitelist in src/judge/, and they cannot redefine these predicates.

:- use_module(library(lists)).
:- use_module(library(dif)).
:- use_module(library(iso_ext)).
:- use_module(library(error)).

% last(?List, ?Last): SWI semantics, last element of a proper list.
last([X|Xs], Last) :- '$judge_last'(Xs, X, Last).
'$judge_last'([], Last, Last).
'$judge_last'([X|Xs], _, Last) :- '$judge_last'(Xs, X, Last).

% sumlist/2 is SWI's old name for sum_list/2.
sumlist(Xs, Sum) :- sum_list(Xs, Sum).

% max_list/2 and min_list/2 evaluate like SWI (`Max is max(H, Max0)`); they
% fail on the empty list.
max_list(Xs, Max) :- '$judge_fold_arith'(Xs, max, max_list/2, Max).
min_list(Xs, Min) :- '$judge_fold_arith'(Xs, min, min_list/2, Min).
'$judge_fold_arith'(Xs, Op, PI, R) :-
    (   Xs == [] -> fail
    ;   nonvar(Xs), Xs = [X|T] -> '$judge_fold_arith_'(T, Op, PI, X, R)
    ;   '$judge_no_rule'(PI)
    ).
'$judge_fold_arith_'(Xs, Op, PI, R0, R) :-
    (   Xs == [] -> R = R0
    ;   nonvar(Xs), Xs = [X|T] ->
        E =.. [Op, X, R0], '$judge_value'(E, R1),
        '$judge_fold_arith_'(T, Op, PI, R1, R)
    ;   '$judge_no_rule'(PI)
    ).

% SWI defines many list predicates by single-sided unification: a call
% whose list argument matches no clause head raises this error.
'$judge_no_rule'(PI) :- throw(error(existence_error(matching_rule, PI), PI)).

% msort/2 sorts without removing duplicates (standard order of terms).
msort(List, Sorted) :-
    '$judge_keyed'(List, Keyed),
    keysort(Keyed, SortedKeyed),
    '$judge_unkey'(SortedKeyed, Sorted).
'$judge_keyed'([], []).
'$judge_keyed'([X|Xs], [X-x|Ks]) :- '$judge_keyed'(Xs, Ks).
'$judge_unkey'([], []).
'$judge_unkey'([X-_|Ks], [X|Xs]) :- '$judge_unkey'(Ks, Xs).

% sort(+Key, +Order, +List, -Sorted): SWI's sort/4. Key 0 sorts on the whole
% term, Key N > 0 on the N-th argument. @< and @> drop elements whose key
% equals an earlier one, @=< and @>= keep them; equal keys keep input order.
sort(Key, Order, List, Sorted) :-
    must_be(integer, Key),
    '$judge_sort_keys'(List, Key, Keyed),
    keysort(Keyed, Ascending),
    '$judge_groups'(Ascending, Groups),
    (   Order == (@<)  -> '$judge_firsts'(Groups, Pairs)
    ;   Order == (@=<) -> append(Groups, Pairs)
    ;   Order == (@>)  -> reverse(Groups, Desc), '$judge_firsts'(Desc, Pairs)
    ;   Order == (@>=) -> reverse(Groups, Desc), append(Desc, Pairs)
    ;   domain_error(order, Order, sort/4)
    ),
    '$judge_pair_values'(Pairs, Sorted).
'$judge_sort_keys'([], _, []).
'$judge_sort_keys'([X|Xs], Key, [K-X|Ks]) :-
    ( Key =:= 0 -> K = X ; arg(Key, X, K) ),
    '$judge_sort_keys'(Xs, Key, Ks).
% Runs of pairs with identical keys, in order.
'$judge_groups'([], []).
'$judge_groups'([K-V|Ps], [[K-V|Same]|Groups]) :-
    '$judge_same_key'(Ps, K, Same, Rest),
    '$judge_groups'(Rest, Groups).
'$judge_same_key'([K1-V|Ps], K, [K1-V|Same], Rest) :- K1 == K, !, '$judge_same_key'(Ps, K, Same, Rest).
'$judge_same_key'(Ps, _, [], Ps).
'$judge_firsts'([], []).
'$judge_firsts'([[P|_]|Gs], [P|Ps]) :- '$judge_firsts'(Gs, Ps).
'$judge_pair_values'([], []).
'$judge_pair_values'([_-V|Ps], [V|Vs]) :- '$judge_pair_values'(Ps, Vs).

% include/3, exclude/3 with SWI semantics (a goal that fails excludes).
include(_, [], []).
include(G, [X|Xs], Out) :-
    ( call(G, X) -> Out = [X|Out1] ; Out = Out1 ),
    include(G, Xs, Out1).
exclude(_, [], []).
exclude(G, [X|Xs], Out) :-
    ( call(G, X) -> Out = Out1 ; Out = [X|Out1] ),
    exclude(G, Xs, Out1).

% aggregate_all/3 with SWI's semantics: count, sum, max and min evaluate
% (sum of nothing is 0, max/min of nothing fail); max(X, W) and min(X, W)
% keep the first witness of the extreme value and need numbers.
aggregate_all(Spec, _, _) :- var(Spec), !, throw(error(instantiation_error, aggregate_all/3)).
aggregate_all(count, G, N) :- !, findall(x, G, L), length(L, N).
aggregate_all(sum(E), G, S) :- !, findall(E, G, L), '$judge_sum'(L, 0, S).
aggregate_all(max(E), G, M) :- !, findall(E, G, L), L = [X|Xs], '$judge_fold_arith_'(Xs, max, aggregate_all/3, X, M0), '$judge_value'(M0, M).
aggregate_all(min(E), G, M) :- !, findall(E, G, L), L = [X|Xs], '$judge_fold_arith_'(Xs, min, aggregate_all/3, X, M0), '$judge_value'(M0, M).
aggregate_all(max(E, W), G, max(M, MW)) :- !, findall(E-W, G, L), L = [X-XW|Xs], '$judge_must_be_number'(X), '$judge_extreme'(Xs, >, X, XW, M, MW).
aggregate_all(min(E, W), G, min(M, MW)) :- !, findall(E-W, G, L), L = [X-XW|Xs], '$judge_must_be_number'(X), '$judge_extreme'(Xs, <, X, XW, M, MW).
aggregate_all(bag(E), G, L) :- !, findall(E, G, L).
aggregate_all(set(E), G, S) :- !, findall(E, G, L), sort(L, S).
aggregate_all(Spec, _, _) :- throw(error(domain_error(aggregate_template, Spec), aggregate_all/3)).
'$judge_sum'([], S, S).
'$judge_sum'([X|Xs], S0, S) :- '$judge_value'(S0 + X, S1), '$judge_sum'(Xs, S1, S).
'$judge_extreme'([], _, M, W, M, W).
'$judge_extreme'([X-XW|Xs], Cmp, M0, W0, M, W) :-
    (   '$judge_arith'(Cmp, X, M0) -> '$judge_extreme'(Xs, Cmp, X, XW, M, W)
    ;   '$judge_extreme'(Xs, Cmp, M0, W0, M, W)
    ).
'$judge_must_be_number'(X) :- ( number(X) -> true ; throw(error(type_error(number, X), aggregate_all/3)) ).

% Library predicates scryer lacks, with SWI-Prolog 9's semantics (checked
% against swipl by tests/judge_scryer.rs).
subtract(L, D, R) :-
    (   L == [] -> R = []
    ;   nonvar(L), L = [E|T] ->
        (   memberchk(E, D) -> subtract(T, D, R)
        ;   R = [E|R1], subtract(T, D, R1)
        )
    ;   '$judge_no_rule'(subtract/3)
    ).
intersection(L, D, R) :-
    (   L == [] -> R = []
    ;   nonvar(L), L = [E|T] ->
        (   memberchk(E, D) -> R = [E|R1], intersection(T, D, R1)
        ;   intersection(T, D, R)
        )
    ;   '$judge_no_rule'(intersection/3)
    ).
union(L, D, R) :-
    (   L == [] -> R = D
    ;   nonvar(L), L = [E|T] ->
        (   memberchk(E, D) -> union(T, D, R)
        ;   R = [E|R1], union(T, D, R1)
        )
    ;   '$judge_no_rule'(union/3)
    ).
delete([], _, []).
delete([E|T], Del, R) :-
    (   \+ E \= Del -> delete(T, Del, R)
    ;   R = [E|R1], delete(T, Del, R1)
    ).
nextto(X, Y, [X, Y|_]).
nextto(X, Y, [_|Zs]) :- nextto(X, Y, Zs).
max_member(M, L) :- '$judge_member_extreme'(L, @=<, max_member/2, M).
min_member(M, L) :- '$judge_member_extreme'(L, @>=, min_member/2, M).
'$judge_member_extreme'(L, Keep, PI, M) :-
    (   L == [] -> fail
    ;   nonvar(L), L = [H|T] -> '$judge_member_extreme_'(T, Keep, PI, H, M)
    ;   '$judge_no_rule'(PI)
    ).
'$judge_member_extreme_'(L, Keep, PI, M0, M) :-
    (   L == [] -> M = M0
    ;   nonvar(L), L = [H|T] ->
        (   call(Keep, H, M0) -> '$judge_member_extreme_'(T, Keep, PI, M0, M)
        ;   '$judge_member_extreme_'(T, Keep, PI, H, M)
        )
    ;   '$judge_no_rule'(PI)
    ).
partition(P, L, I, E) :- '$judge_partition'(L, P, I, E).
'$judge_partition'([], _, [], []).
'$judge_partition'([H|T], P, I, E) :-
    (   call(P, H) -> I = [H|I1], E = E1
    ;   I = I1, E = [H|E1]
    ),
    '$judge_partition'(T, P, I1, E1).
partition(P, L, Ls, Es, Gs) :- '$judge_partition'(L, P, Ls, Es, Gs).
'$judge_partition'([], _, [], [], []).
'$judge_partition'([H|T], P, L, E, G) :-
    call(P, H, O),
    '$judge_partition'(O, H, P, T, L, E, G).
'$judge_partition'(<, H, P, T, [H|L], E, G) :- !, '$judge_partition'(T, P, L, E, G).
'$judge_partition'(=, H, P, T, L, [H|E], G) :- !, '$judge_partition'(T, P, L, E, G).
'$judge_partition'(>, H, P, T, L, E, [H|G]) :- !, '$judge_partition'(T, P, L, E, G).
'$judge_partition'(O, _, _, _, _, _, _) :- throw(error(domain_error(order, O), partition/5)).
foldl(G, L1, L2, L3, V0, V) :- '$judge_foldl'(L1, L2, L3, G, V0, V).
'$judge_foldl'([], [], [], _, V, V).
'$judge_foldl'([X|Xs], [Y|Ys], [Z|Zs], G, V0, V) :-
    call(G, X, Y, Z, V0, V1),
    '$judge_foldl'(Xs, Ys, Zs, G, V1, V).
plus(X, Y, Z) :-
    '$judge_can_be_integer'(X), '$judge_can_be_integer'(Y), '$judge_can_be_integer'(Z),
    (   integer(X), integer(Y) -> Z is X + Y
    ;   integer(X), integer(Z) -> Y is Z - X
    ;   integer(Y), integer(Z) -> X is Z - Y
    ;   throw(error(instantiation_error, plus/3))
    ).
'$judge_can_be_integer'(X) :- ( var(X) -> true ; must_be(integer, X) ).
is_list(X) :- ( var(X) -> fail ; X == [] -> true ; X = [_|T] -> is_list(T) ; fail ).

% predsort/3 with SWI 9's results, whatever the predicate answers: a list
% that is not proper raises; a top-down merge sort sorts the first N//2
% elements, then the rest, and merges; a pair costs one call; on `=` the
% left element stays and the right one goes; an order other than <, = or >
% fails; backtracking reaches the predicate's other answers.
predsort(P, L, Sorted) :-
    (   is_list(L) -> length(L, N), '$judge_psort'(N, P, L, _, S), Sorted = S
    ;   throw(error(type_error(list, L), predsort/3))
    ).
'$judge_psort'(0, _, L, L, []) :- !.
'$judge_psort'(1, _, [X|L], L, [X]) :- !.
'$judge_psort'(2, P, [X, Y|L], L, S) :- !, call(P, O, X, Y), '$judge_pair'(O, X, Y, S).
'$judge_psort'(N, P, L0, L, S) :-
    A is N // 2, B is N - A,
    '$judge_psort'(A, P, L0, L1, S1),
    '$judge_psort'(B, P, L1, L, S2),
    '$judge_pmerge'(S1, S2, P, S).
'$judge_pair'(<, X, Y, [X, Y]).
'$judge_pair'(=, X, _, [X]).
'$judge_pair'(>, X, Y, [Y, X]).
'$judge_pmerge'([], S, _, S) :- !.
'$judge_pmerge'(S, [], _, S) :- !.
'$judge_pmerge'([X|Xs], [Y|Ys], P, S) :-
    call(P, O, X, Y), !,
    '$judge_pmerge_'(O, X, Xs, Y, Ys, P, S).
'$judge_pmerge_'(<, X, Xs, Y, Ys, P, [X|S]) :- '$judge_pmerge'(Xs, [Y|Ys], P, S).
'$judge_pmerge_'(=, X, Xs, _, Ys, P, [X|S]) :- '$judge_pmerge'(Xs, Ys, P, S).
'$judge_pmerge_'(>, X, Xs, Y, Ys, P, [Y|S]) :- '$judge_pmerge'([X|Xs], Ys, P, S).

% Comparisons in answers are called through these (src/judge/sandbox.rs):
% SWI and scryer order two distinct unbound variables by their addresses,
% which differ between the systems, so such a comparison is not scored.
'$judge_order'(Op, A, B) :- '$judge_orderable'(A, B), call(Op, A, B).
'$judge_compare'(O, A, B) :- '$judge_orderable'(A, B), compare(O, A, B).
% Walks A and B to where the standard order decides.
'$judge_orderable'(A, B) :-
    (   A == B -> true
    ;   var(A), var(B) -> '$judge_unsupported'(order_of_variables)
    ;   compound(A), compound(B), functor(A, F, N), functor(B, F, N) ->
        '$judge_orderable_args'(1, A, B)
    ;   true
    ).
% Some argument differs (A \== B), so this stops within the arity.
'$judge_orderable_args'(I, A, B) :-
    arg(I, A, X), arg(I, B, Y),
    (   X == Y -> I1 is I + 1, '$judge_orderable_args'(I1, A, B)
    ;   '$judge_orderable'(X, Y)
    ).

% numlist/3: integers from L to H; fails when L > H.
numlist(L, H, R) :-
    must_be(integer, L), must_be(integer, H),
    L =< H,
    '$judge_numlist'(L, H, R).
'$judge_numlist'(L, H, R) :-
    ( L =:= H -> R = [L] ; L1 is L + 1, R = [L|R1], '$judge_numlist'(L1, H, R1) ).

% between/3 with SWI's `inf` and `infinite` upper bounds.
between(L, H, X) :-
    must_be(integer, L),
    (   ( H == inf ; H == infinite ) -> true ; must_be(integer, H) ),
    (   integer(X) -> X >= L, ( integer(H) -> X =< H ; true )
    ;   var(X) -> ( integer(H) -> L =< H, '$judge_between'(L, H, X) ; '$judge_from'(L, X) )
    ;   must_be(integer, X)
    ).
'$judge_between'(L, H, X) :- ( L =:= H -> X = L ; ( X = L ; L1 is L + 1, '$judge_between'(L1, H, X) ) ).
'$judge_from'(L, L).
'$judge_from'(L, X) :- L1 is L + 1, '$judge_from'(L1, X).

% upcase_atom/2 for ASCII text; other letters would need SWI's Unicode
% tables, so they are reported as unsupported rather than answered.
upcase_atom(A, U) :-
    (   var(A) -> throw(error(instantiation_error, upcase_atom/2))
    ;   atom(A) -> atom_codes(A, Cs)
    ;   integer(A) -> number_codes(A, Cs)
    ;   number(A) -> '$judge_unsupported'(upcase_atom(A))
    ;   throw(error(type_error(atomic, A), upcase_atom/2))
    ),
    '$judge_upcase'(Cs, Us),
    atom_codes(U0, Us),
    U = U0.
'$judge_upcase'([], []).
'$judge_upcase'([C|Cs], [U|Us]) :-
    (   C >= 0'a, C =< 0'z -> U is C - 32
    ;   C > 127 -> '$judge_unsupported'(upcase_atom)
    ;   U = C
    ),
    '$judge_upcase'(Cs, Us).

% atom_number/2 for the number syntax both systems read alike (optional
% sign, digits, optional fraction and exponent). SWI also reads forms such
% as 0x1A, 1e3, 1r3 and 1_000: those are reported as unsupported.
atom_number(A, N) :-
    (   atom(A) ->
        atom_codes(A, Cs),
        (   Cs = [S|Ds], ( S == 0'- ; S == 0'+ ) -> true ; Ds = Cs, S = 0'+ ),
        (   Ds = [D|_], D >= 0'0, D =< 0'9 ->
            (   '$judge_plain_number'(Ds) ->
                number_codes(N0, Ds),
                ( S == 0'- -> N1 is -N0 ; N1 = N0 ),
                N = N1
            ;   '$judge_unsupported'(atom_number(A))
            )
        ;   fail
        )
    % As SWI: a number is printed and unified, so a bound non-atom fails;
    % only then come the type and instantiation errors.
    ;   number(N) ->
        (   nonvar(A) -> fail
        ;   integer(N) -> number_codes(N, Cs), atom_codes(A, Cs)
        ;   '$judge_unsupported'(atom_number(N))
        )
    ;   nonvar(N) -> throw(error(type_error(number, N), atom_number/2))
    ;   nonvar(A) -> throw(error(type_error(atom, A), atom_number/2))
    ;   throw(error(instantiation_error, atom_number/2))
    ).
'$judge_plain_number'(Cs) :-
    '$judge_digits'(Cs, Rest),
    (   Rest == [] -> true
    ;   Rest = [0'.|F], '$judge_digits'(F, E),
        (   E == [] -> true
        ;   E = [X|Ex], ( X == 0'e ; X == 0'E ),
            ( Ex = [Sg|Ed], ( Sg == 0'+ ; Sg == 0'- ) -> true ; Ed = Ex ),
            '$judge_digits'(Ed, [])
        )
    ).
'$judge_digits'([D|Ds], Rest) :- D >= 0'0, D =< 0'9, '$judge_digits_'(Ds, Rest).
'$judge_digits_'(Ds, Rest) :-
    (   Ds = [D|Ds1], D >= 0'0, D =< 0'9 -> '$judge_digits_'(Ds1, Rest) ; Rest = Ds ).

% Where scryer would not do what SWI does, the answer is not scored: the
% judge reports engine_unsupported (src/judge/pool.rs looks for this name).
'$judge_unsupported'(What) :- throw('$judge_unsupported'(What)).

% Calling a predicate that neither the task nor the answer defines raises the
% same error as in SWI; the whitelist rewrites such calls to this goal so that
% leftovers of earlier answers in the same machine can never be reached.
'$judge_undefined'(Name, Arity) :-
    throw(error(existence_error(procedure, Name/Arity), Name/Arity)).

% '$judge_eval'(+Goals, +Limit, -Verdicts): runs each goal once under an
% inference limit. Verdict 1 = succeeded, 0 = failed, 2 = limit exceeded,
% error(E) = raised E. Evaluation stops at the first timeout or error, because
% the reference judge scores the whole answer 0 in those cases.
'$judge_eval'([], _, []).
'$judge_eval'([G|Gs], Limit, [V|Vs]) :-
    '$judge_one'(G, Limit, V),
    (   V == 0 -> '$judge_eval'(Gs, Limit, Vs)
    ;   V == 1 -> '$judge_eval'(Gs, Limit, Vs)
    ;   Vs = []
    ).
'$judge_one'(G, Limit, V) :-
    catch(( call_with_inference_limit(G, Limit, R) ->
              ( R == inference_limit_exceeded -> V = 2 ; V = 1 )
          ;   V = 0
          ),
          E,
          V = error(E)).

% Arithmetic in answers is called through this predicate, because scryer
% evaluates constant arithmetic when it compiles a clause and, on an error
% such as `X is foo + 1`, drops the whole text and corrupts the machine;
% SWI raises the error only when the goal runs. It also evaluates as SWI
% does where scryer differs: `/` of integers is an integer when exact, and
% max/min of equal mixed numbers give the float.
'$judge_arith'(is, X, E) :- '$judge_value'(E, V), X = V.
'$judge_arith'(=:=, A, B) :- '$judge_value'(A, X), '$judge_value'(B, Y), X =:= Y.
'$judge_arith'(=\=, A, B) :- '$judge_value'(A, X), '$judge_value'(B, Y), X =\= Y.
'$judge_arith'(<, A, B) :- '$judge_value'(A, X), '$judge_value'(B, Y), X < Y.
'$judge_arith'(>, A, B) :- '$judge_value'(A, X), '$judge_value'(B, Y), X > Y.
'$judge_arith'(=<, A, B) :- '$judge_value'(A, X), '$judge_value'(B, Y), X =< Y.
'$judge_arith'(>=, A, B) :- '$judge_value'(A, X), '$judge_value'(B, Y), X >= Y.

'$judge_value'(E, V) :- var(E), !, V is E.
'$judge_value'(E, V) :- number(E), !, V = E.
'$judge_value'([X], V) :- !, '$judge_value'(X, V).
'$judge_value'(E, V) :-
    compound(E), !,
    E =.. [F|Xs],
    '$judge_values'(Xs, Ys),
    E1 =.. [F|Ys],
    '$judge_apply'(E1, V).
'$judge_value'(E, V) :- V is E.
'$judge_values'([], []).
'$judge_values'([X|Xs], [Y|Ys]) :- '$judge_value'(X, Y), '$judge_values'(Xs, Ys).
'$judge_apply'(X / Y, V) :- !,
    (   Y =:= 0 -> throw(error(evaluation_error(zero_divisor), (/)/2))
    ;   integer(X), integer(Y), X mod Y =:= 0 -> V is X // Y
    ;   V is X / Y
    ).
'$judge_apply'(max(X, Y), V) :- !,
    ( X < Y -> V = Y ; Y < X -> V = X ; float(X) -> V = X ; V is Y ).
'$judge_apply'(min(X, Y), V) :- !,
    ( X < Y -> V = X ; Y < X -> V = Y ; float(X) -> V = X ; V is Y ).
'$judge_apply'(X ** Y, V) :- !, '$judge_power'(X, Y, V).
'$judge_apply'(X ^ Y, V) :- !, '$judge_power'(X, Y, V).
'$judge_apply'(integer(X), V) :- !, ( integer(X) -> V = X ; V is round(X) ).
'$judge_apply'(msb(X), V) :- !,
    ( integer(X), X > 0 -> '$judge_msb'(X, 0, V) ; '$judge_unsupported'(msb(X)) ).
'$judge_apply'(float_integer_part(X), V) :- integer(X), !, V = X.
'$judge_apply'(float_fractional_part(X), V) :- integer(X), !, V = 0.
'$judge_apply'(atan2(X, Y), V) :- !,
    ( X =:= 0, Y =:= 0 -> '$judge_unsupported'(atan2(X, Y)) ; V is atan2(X, Y) ).
'$judge_apply'(copysign(X, Y), _) :- !, '$judge_unsupported'(copysign(X, Y)).
'$judge_apply'(E, V) :- V is E.
% SWI's ** and ^ on integers: exact for a natural exponent, a float for a
% negative one (but 1 and -1 stay exact). With a float operand SWI's
% results follow rules of their own (2.0 ** 0.0 is the integer 1).
'$judge_power'(X, Y, V) :-
    (   integer(X), integer(Y) ->
        (   Y >= 0 -> V is X ^ Y
        ;   X =:= 1 -> V = 1
        ;   X =:= -1 -> ( Y mod 2 =:= 0 -> V = 1 ; V = -1 )
        ;   X =:= 0 -> throw(error(evaluation_error(zero_divisor), (**)/2))
        ;   V is float(X) ** float(Y)
        )
    ;   '$judge_unsupported'(X ** Y)
    ).
'$judge_msb'(X, N, V) :- ( X =:= 1 -> V = N ; X1 is X >> 1, N1 is N + 1, '$judge_msb'(X1, N1, V) ).
