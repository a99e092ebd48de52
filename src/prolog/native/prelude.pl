% The native evaluator's library: SWI-Prolog list predicates written in
% Prolog, run by the native engine itself. Each gives the same solutions in
% the same order as SWI-Prolog 9; the '$…' checks hand anything outside the
% modes handled here (where SWI raises an error) back to the fallback engine.

member(X, [X|_]).
member(X, [_|T]) :- member(X, T).

% memberchk/2 as SWI 9's C version: a partial list is extended, a tail that
% is not a list raises once the element was not found before it.
memberchk(X, L) :- '$memberchk'(L, X).
'$memberchk'(L, X) :- var(L), !, L = [X|_].
'$memberchk'([H|T], X) :- !, ( X = H -> true ; '$memberchk'(T, X) ).
'$memberchk'(L, _) :- L \== [], '$raise'('type_error(list)').

append([], L, L).
append([H|T], L, [H|R]) :- append(T, L, R).

append(Lists, List) :- '$must_be_list'(Lists), '$append_lists'(Lists, List).
'$append_lists'([], []).
'$append_lists'([L|Ls], As) :- append(L, Ws, As), '$append_lists'(Ls, Ws).

nth0(I, L, E) :- '$nth_index'(I, 0),
    (   integer(I) -> '$nth_at'(I, L, E)
    ;   L = [H|T], '$nth_enum'(T, E, H, 0, I)
    ).
nth1(I, L, E) :- '$nth_index'(I, 1),
    (   integer(I) -> I0 is I - 1, '$nth_at'(I0, L, E)
    ;   L = [H|T], '$nth_enum'(T, E, H, 1, I)
    ).
'$nth_at'(0, [E|_], E) :- !.
'$nth_at'(N, [_|T], E) :- N > 0, M is N - 1, '$nth_at'(M, T, E).
'$nth_enum'(_, E, E, I, I).
'$nth_enum'([H|T], E, _, I0, I) :- I1 is I0 + 1, '$nth_enum'(T, E, H, I1, I).
% nth0/4 and nth1/4: the element at an index and the rest; with the index
% unbound, every position in turn (an unbound list gets the element
% inserted at each place of the rest). A negative index is SWI's error.
nth0(I, L, E, R) :- var(I), !, '$nth_gen'(L, E, R, 0, I).
nth0(I, L, E, R) :-
    (   '$nth_index'(I, 0) -> '$nth_del'(I, L, E, R)
    ;   '$raise'('type_error(nonneg)')
    ).
nth1(I, L, E, R) :- var(I), !, '$nth_gen'(L, E, R, 1, I).
nth1(I, L, E, R) :-
    (   '$nth_index'(I, 1) -> I0 is I - 1, '$nth_del'(I0, L, E, R)
    ;   '$raise'('type_error(positive_integer)')
    ).
'$nth_gen'([E|R], E, R, I, I).
'$nth_gen'([H|T], E, [H|R], I0, I) :- I1 is I0 + 1, '$nth_gen'(T, E, R, I1, I).
'$nth_del'(0, [E|R], E, R) :- !.
'$nth_del'(N, [H|T], E, [H|R]) :- M is N - 1, '$nth_del'(M, T, E, R).

% aggregate/3 (library(aggregate)): bagof/setof semantics, so free
% variables of the goal group the solutions and no solution fails.
aggregate(Spec, Goal, Result) :- var(Spec), !, '$raise'('instantiation_error').
aggregate(count, Goal, Count) :- !, bagof(x, Goal, L), length(L, Count).
aggregate(sum(X), Goal, Sum) :- !, bagof(X, Goal, L), sum_list(L, Sum).
aggregate(max(X), Goal, Max) :- !, bagof(X, Goal, [H|T]), M0 is H, '$agg_fold'(T, max, M0, Max).
aggregate(min(X), Goal, Min) :- !, bagof(X, Goal, [H|T]), M0 is H, '$agg_fold'(T, min, M0, Min).
aggregate(max(X, W), Goal, max(Max, Wit)) :- !, bagof(X-W, Goal, [X0-W0|T]),
    M0 is X0, '$agg_witness'(T, (>), M0, W0, Max, Wit).
aggregate(min(X, W), Goal, min(Min, Wit)) :- !, bagof(X-W, Goal, [X0-W0|T]),
    M0 is X0, '$agg_witness'(T, (<), M0, W0, Min, Wit).
aggregate(bag(X), Goal, Bag) :- !, bagof(X, Goal, Bag).
aggregate(set(X), Goal, Set) :- !, setof(X, Goal, Set).
aggregate(_, _, _) :- '$unsupported'('aggregate/3 template').
'$agg_fold'([], _, M, M).
'$agg_fold'([X|T], max, M0, M) :- M1 is max(M0, X), '$agg_fold'(T, max, M1, M).
'$agg_fold'([X|T], min, M0, M) :- M1 is min(M0, X), '$agg_fold'(T, min, M1, M).
'$agg_witness'([], _, M, W, M, W).
'$agg_witness'([X-W|T], Op, M0, W0, M, Wit) :- X1 is X,
    (   call(Op, X1, M0) -> '$agg_witness'(T, Op, X1, W, M, Wit)
    ;   '$agg_witness'(T, Op, M0, W0, M, Wit)
    ).

last([X|Xs], Last) :- '$last'(Xs, X, Last).
'$last'([], Last, Last).
'$last'([X|Xs], _, Last) :- '$last'(Xs, X, Last).

% The fourth argument bounds the output's length by the input's, so a
% partial first list with a proper second one terminates, as in SWI.
reverse(Xs, Ys) :- '$reverse'(Xs, [], Ys, Ys).
'$reverse'([], Ys, Ys, []).
'$reverse'([X|Xs], Acc, Ys, [_|Bound]) :- '$reverse'(Xs, [X|Acc], Ys, Bound).

select(X, [X|T], T).
select(X, [H|T], [H|R]) :- select(X, T, R).

permutation(Xs, Ys) :- '$perm_check'(Xs, Ys), '$permutation'(Xs, Ys).
'$permutation'([], []).
'$permutation'(L, [F|P]) :- select(F, L, R), '$permutation'(R, P).

between(L, H, X) :- '$between_check'(L, H, X),
    (   integer(X) -> X >= L, ( integer(H) -> X =< H ; true )
    ;   integer(H) -> L =< H, '$between'(L, H, X)
    ;   '$between_up'(L, X)
    ).
'$between'(L, _, L).
'$between'(L, H, X) :- L < H, L1 is L + 1, '$between'(L1, H, X).
'$between_up'(L, L).
'$between_up'(L, X) :- L1 is L + 1, '$between_up'(L1, X).

include(_, [], []).
include(G, [X|Xs], Out) :-
    ( call(G, X) -> Out = [X|Out1] ; Out = Out1 ),
    include(G, Xs, Out1).
exclude(_, [], []).
exclude(G, [X|Xs], Out) :-
    ( call(G, X) -> Out = Out1 ; Out = [X|Out1] ),
    exclude(G, Xs, Out1).

maplist(_, []).
maplist(G, [A|As]) :- call(G, A), maplist(G, As).
maplist(_, [], []).
maplist(G, [A|As], [B|Bs]) :- call(G, A, B), maplist(G, As, Bs).
maplist(_, [], [], []).
maplist(G, [A|As], [B|Bs], [C|Cs]) :- call(G, A, B, C), maplist(G, As, Bs, Cs).
maplist(_, [], [], [], []).
maplist(G, [A|As], [B|Bs], [C|Cs], [D|Ds]) :- call(G, A, B, C, D), maplist(G, As, Bs, Cs, Ds).

% SWI 9 writes these with single-sided unification (=>): a first argument
% that is not a proper list raises instead of failing or binding.
'$ssu_list'(L) :- is_list(L), !.
'$ssu_list'(_) :- '$raise'('existence_error(matching_rule)').

subtract(Xs, D, R) :- '$ssu_list'(Xs), '$subtract'(Xs, D, R).
'$subtract'([], _, []).
'$subtract'([E|T], D, R) :- memberchk(E, D), !, '$subtract'(T, D, R).
'$subtract'([H|T], D, [H|R]) :- '$subtract'(T, D, R).

intersection(Xs, L, R) :- '$ssu_list'(Xs), '$intersection'(Xs, L, R).
'$intersection'([], _, []).
'$intersection'([X|T], L, I) :-
    (   memberchk(X, L) -> I = [X|R], '$intersection'(T, L, R)
    ;   '$intersection'(T, L, I)
    ).

union(Xs, L, R) :- '$ssu_list'(Xs), '$union'(Xs, L, R).
'$union'([], L, L).
'$union'([H|T], L, R) :- memberchk(H, L), !, '$union'(T, L, R).
'$union'([H|T], L, [H|R]) :- '$union'(T, L, R).

delete([], _, []).
delete([E|T], D, R) :-
    (   E \= D -> R = [E|R1], delete(T, D, R1)
    ;   delete(T, D, R)
    ).

nextto(X, Y, [X,Y|_]).
nextto(X, Y, [_|Zs]) :- nextto(X, Y, Zs).

max_member(Max, L) :- '$ssu_nonempty'(L), L = [H|T], '$max_member'(T, H, Max).
'$max_member'([], Max, Max).
'$max_member'([H|T], Max0, Max) :-
    ( H @=< Max0 -> Max1 = Max0 ; Max1 = H ), '$max_member'(T, Max1, Max).
min_member(Min, L) :- '$ssu_nonempty'(L), L = [H|T], '$min_member'(T, H, Min).
'$min_member'([], Min, Min).
'$min_member'([H|T], Min0, Min) :-
    ( H @>= Min0 -> Min1 = Min0 ; Min1 = H ), '$min_member'(T, Min1, Min).
% max_member/2 fails on [] and raises on anything but a proper list.
'$ssu_nonempty'(L) :- is_list(L), !, L = [_|_].
'$ssu_nonempty'(_) :- '$raise'('existence_error(matching_rule)').

partition(P, L, I, E) :- '$partition'(L, P, I, E).
'$partition'([], _, [], []).
'$partition'([H|T], P, I, E) :-
    (   call(P, H) -> I = [H|I1], E = E1
    ;   I = I1, E = [H|E1]
    ),
    '$partition'(T, P, I1, E1).

partition(P, L, Ls, Es, Gs) :- '$partition'(L, P, Ls, Es, Gs).
'$partition'([], _, [], [], []).
'$partition'([H|T], P, L, E, G) :-
    call(P, H, O),
    '$partition_'(O, H, P, T, L, E, G).
'$partition_'(<, H, P, T, [H|L], E, G) :- !, '$partition'(T, P, L, E, G).
'$partition_'(=, H, P, T, L, [H|E], G) :- !, '$partition'(T, P, L, E, G).
'$partition_'(>, H, P, T, L, E, [H|G]) :- !, '$partition'(T, P, L, E, G).
'$partition_'(_, _, _, _, _, _, _) :- '$raise'('domain_error(partition_order)').

foldl(G, L, V0, V) :- '$foldl'(L, G, V0, V).
'$foldl'([], _, V, V).
'$foldl'([X|Xs], G, V0, V) :- call(G, X, V0, V1), '$foldl'(Xs, G, V1, V).
foldl(G, L1, L2, V0, V) :- '$foldl'(L1, L2, G, V0, V).
'$foldl'([], [], _, V, V).
'$foldl'([X|Xs], [Y|Ys], G, V0, V) :- call(G, X, Y, V0, V1), '$foldl'(Xs, Ys, G, V1, V).
foldl(G, L1, L2, L3, V0, V) :- '$foldl'(L1, L2, L3, G, V0, V).
'$foldl'([], [], [], _, V, V).
'$foldl'([X|Xs], [Y|Ys], [Z|Zs], G, V0, V) :-
    call(G, X, Y, Z, V0, V1), '$foldl'(Xs, Ys, Zs, G, V1, V).

% predsort/3 with SWI 9's results, whatever the predicate answers (the same
% definition as stdlib/judge.pl's, for scryer): a list that is not proper
% raises; a top-down merge sort sorts the first N//2 elements, then the
% rest, and merges; a pair costs one call; on `=` the left element stays.
predsort(P, L, Sorted) :-
    (   is_list(L)
    ->  length(L, N), '$psort'(N, P, L, _, S), Sorted = S
    ;   '$raise'('must_be(list)')
    ).
'$psort'(0, _, L, L, []) :- !.
'$psort'(1, _, [X|L], L, [X]) :- !.
'$psort'(2, P, [X, Y|L], L, S) :- !, call(P, O, X, Y), '$psort_pair'(O, X, Y, S).
'$psort'(N, P, L0, L, S) :-
    A is N // 2, B is N - A,
    '$psort'(A, P, L0, L1, S1),
    '$psort'(B, P, L1, L, S2),
    '$psort_merge'(S1, S2, P, S).
'$psort_pair'(<, X, Y, [X, Y]).
'$psort_pair'(=, X, _, [X]).
'$psort_pair'(>, X, Y, [Y, X]).
'$psort_merge'([], S, _, S) :- !.
'$psort_merge'(S, [], _, S) :- !.
'$psort_merge'([X|Xs], [Y|Ys], P, S) :-
    call(P, O, X, Y), !,
    '$psort_merge_'(O, X, Xs, Y, Ys, P, S).
'$psort_merge_'(<, X, Xs, Y, Ys, P, [X|S]) :- '$psort_merge'(Xs, [Y|Ys], P, S).
'$psort_merge_'(=, X, Xs, _, Ys, P, [X|S]) :- '$psort_merge'(Xs, Ys, P, S).
'$psort_merge_'(>, X, Xs, Y, Ys, P, [Y|S]) :- '$psort_merge'([X|Xs], Ys, P, S).

% length/2 on a partial list with an unbound length enumerates lengths.
'$length_enum'([], 0).
'$length_enum'([_|T], N) :- '$length_enum'(T, N0), N is N0 + 1.

% An undefined closure called with extra arguments raises for the name and
% arity the sandbox recorded (its full arity), not for the extra arguments.
'$judge_undefined'(N, A, _) :- '$judge_undefined'(N, A).
'$judge_undefined'(N, A, _, _) :- '$judge_undefined'(N, A).
'$judge_undefined'(N, A, _, _, _) :- '$judge_undefined'(N, A).
'$judge_undefined'(N, A, _, _, _, _) :- '$judge_undefined'(N, A).
'$judge_undefined'(N, A, _, _, _, _, _) :- '$judge_undefined'(N, A).
'$judge_undefined'(N, A, _, _, _, _, _, _) :- '$judge_undefined'(N, A).
'$judge_undefined'(N, A, _, _, _, _, _, _, _) :- '$judge_undefined'(N, A).

% library(yall), as SWI 9 runs it when called: the lambda is copied (all
% its variables but those of {Free}), its parameters unified with the
% first arguments, and the rest passed on.
'>>'(Ps, L) :- '$yall'(Ps, L, []).
'>>'(Ps, L, A1) :- '$yall'(Ps, L, [A1]).
'>>'(Ps, L, A1, A2) :- '$yall'(Ps, L, [A1, A2]).
'>>'(Ps, L, A1, A2, A3) :- '$yall'(Ps, L, [A1, A2, A3]).
'>>'(Ps, L, A1, A2, A3, A4) :- '$yall'(Ps, L, [A1, A2, A3, A4]).
'>>'(Ps, L, A1, A2, A3, A4, A5) :- '$yall'(Ps, L, [A1, A2, A3, A4, A5]).
'>>'(Ps, L, A1, A2, A3, A4, A5, A6) :- '$yall'(Ps, L, [A1, A2, A3, A4, A5, A6]).
'>>'(Ps, L, A1, A2, A3, A4, A5, A6, A7) :- '$yall'(Ps, L, [A1, A2, A3, A4, A5, A6, A7]).
'$yall'(Ps, _, _) :- var(Ps), !, '$raise'(instantiation_error).
'$yall'(Free/Ps, L, Args) :- !,
    '$yall_free'(Free), '$must_be_list'(Ps),
    copy_term(Free/Ps>>L, Free/Pc>>Lc),
    '$yall_bind'(Pc, Args, Extra), '$yall_call'(Extra, Lc).
'$yall'(Ps, L, Args) :-
    '$must_be_list'(Ps),
    copy_term(Ps>>L, Pc>>Lc),
    '$yall_bind'(Pc, Args, Extra), '$yall_call'(Extra, Lc).
'$yall_bind'([], Extra, Extra) :- !.
'$yall_bind'([P|Ps], [A|As], Extra) :- !, P = A, '$yall_bind'(Ps, As, Extra).
'$yall_bind'(_, _, _) :- '$raise'('domain_error(lambda_parameters)').
'$yall_free'(F) :- var(F), !, '$raise'(instantiation_error).
'$yall_free'({_}) :- !.
'$yall_free'({}) :- !.
'$yall_free'(_) :- '$raise'('type_error(lambda_free)').
'$yall_call'([], G) :- call(G).
'$yall_call'([A1], G) :- call(G, A1).
'$yall_call'([A1, A2], G) :- call(G, A1, A2).
'$yall_call'([A1, A2, A3], G) :- call(G, A1, A2, A3).
'$yall_call'([A1, A2, A3, A4], G) :- call(G, A1, A2, A3, A4).
'$yall_call'([A1, A2, A3, A4, A5], G) :- call(G, A1, A2, A3, A4, A5).
'$yall_call'([A1, A2, A3, A4, A5, A6], G) :- call(G, A1, A2, A3, A4, A5, A6).
'$yall_call'([A1, A2, A3, A4, A5, A6, A7], G) :- call(G, A1, A2, A3, A4, A5, A6, A7).
'/'(Free, L) :- '$yall_free'(Free), copy_term(Free+L, Free+Lc), call(Lc).
'/'(Free, L, A1) :- '$yall_free'(Free), copy_term(Free+L, Free+Lc), call(Lc, A1).
'/'(Free, L, A1, A2) :- '$yall_free'(Free), copy_term(Free+L, Free+Lc), call(Lc, A1, A2).
'/'(Free, L, A1, A2, A3) :- '$yall_free'(Free), copy_term(Free+L, Free+Lc), call(Lc, A1, A2, A3).
'/'(Free, L, A1, A2, A3, A4) :-
    '$yall_free'(Free), copy_term(Free+L, Free+Lc), call(Lc, A1, A2, A3, A4).

% library(lists) beyond the above, as SWI 9 defines them.
flatten(List, Flat) :- '$flatten'(List, [], Flat0), !, Flat = Flat0.
'$flatten'(Var, Tl, [Var|Tl]) :- var(Var), !.
'$flatten'([], Tl, Tl) :- !.
'$flatten'([Hd|Tl], Tail, List) :- !,
    '$flatten'(Hd, FlatHeadTail, List), '$flatten'(Tl, Tail, FlatHeadTail).
'$flatten'(NonList, Tl, [NonList|Tl]).

selectchk(Elem, List, Rest) :- select(Elem, List, Rest0), !, Rest = Rest0.
select(X, Xs, Y, Ys) :- '$select4'(Xs, X, Y, Ys).
'$select4'([X|List], X, Y, [Y|List]).
'$select4'([X0|XList], X, Y, [X0|YList]) :- '$select4'(XList, X, Y, YList).
selectchk(X, Xs, Y, Ys) :- select(X, Xs, Y, Ys), !.
clumped(Items, Counts) :- '$clump'(Items, Counts).
'$clump'([], []).
'$clump'([H|T0], [H-C|T]) :- '$ccount'(T0, H, T1, 1, C), '$clump'(T1, T).
'$ccount'([H|T0], E, T, C0, C) :- E == H, !, C1 is C0 + 1, '$ccount'(T0, E, T, C1, C).
'$ccount'(List, _, List, C, C).
prefix([], _).
prefix([E|T0], [E|T]) :- prefix(T0, T).
same_length([], []).
same_length([_|T1], [_|T2]) :- same_length(T1, T2).
is_set(Set) :- is_list(Set), length(Set, Len), sort(Set, Sorted), length(Sorted, Len).
subset(S, _) :- '$ssu_nil'(S), !.
subset(S, Set) :- '$ssu_cons'(S, E, R), !, memberchk(E, Set), subset(R, Set).
subset(_, _) :- '$raise'('existence_error(matching_rule)').
max_member(P, Max, L) :- '$ssu_nonempty'(L), L = [H|T], '$max_member'(T, P, H, Max).
'$max_member'([], _, Max, Max).
'$max_member'([H|T], P, Max0, Max) :-
    ( call(P, H, Max0) -> Max1 = Max0 ; Max1 = H ), '$max_member'(T, P, Max1, Max).
min_member(P, Min, L) :- '$ssu_nonempty'(L), L = [H|T], '$min_member'(T, P, H, Min).
'$min_member'([], _, Min, Min).
'$min_member'([H|T], P, Min0, Min) :-
    ( call(P, Min0, H) -> Min1 = Min0 ; Min1 = H ), '$min_member'(T, P, Min1, Min).
proper_length(List, Length) :- is_list(List), length(List, Length).

% library(pairs).
pairs_keys_values([], [], []).
pairs_keys_values([K-V|T], [K|Ks], [V|Vs]) :- pairs_keys_values(T, Ks, Vs).
pairs_keys([], []).
pairs_keys([K-_|T], [K|Ks]) :- pairs_keys(T, Ks).
pairs_values([], []).
pairs_values([_-V|T], [V|Vs]) :- pairs_values(T, Vs).
group_pairs_by_key([], []).
group_pairs_by_key([M-N|T0], [M-[N|TN]|T]) :- '$same_key'(M, T0, TN, T1), group_pairs_by_key(T1, T).
'$same_key'(M0, [M-N|T0], [N|TN], T) :- M0 == M, !, '$same_key'(M, T0, TN, T).
'$same_key'(_, L, [], L).
transpose_pairs(Pairs, Transposed) :-
    '$flip_pairs'(Pairs, Flipped), keysort(Flipped, Transposed).
'$flip_pairs'([], []).
'$flip_pairs'([K-V|T0], [V-K|T]) :- '$flip_pairs'(T0, T).
map_list_to_pairs(Function, List, Pairs) :- '$map_list_to_pairs'(List, Function, Pairs).
'$map_list_to_pairs'([], _, []).
'$map_list_to_pairs'([H|T0], Pred, [K-H|T]) :-
    call(Pred, H, K), '$map_list_to_pairs'(T0, Pred, T).

% library(ordsets), as SWI 9 defines it; its single-sided (=>) rules raise
% where no rule matches.
ord_empty([]).
ord_seteq(Set1, Set2) :- Set1 == Set2.
list_to_ord_set(List, Set) :- sort(List, Set).
ord_intersect([H1|T1], L2) :- '$ord_intersect_'(L2, H1, T1).
'$ord_intersect_'([H2|T2], H1, T1) :- compare(Order, H1, H2), '$ord_intersect__'(Order, H1, T1, H2, T2).
'$ord_intersect__'(<, _, T1, H2, T2) :- '$ord_intersect_'(T1, H2, T2).
'$ord_intersect__'(=, _, _, _, _).
'$ord_intersect__'(>, H1, T1, _, T2) :- '$ord_intersect_'(T2, H1, T1).
ord_disjoint(Set1, Set2) :- \+ ord_intersect(Set1, Set2).
ord_intersect(Set1, Set2, Intersection) :- ord_intersection(Set1, Set2, Intersection).
ord_intersection(Set1, Set2, Intersection) :-
    (   Intersection == []
    ->  ord_disjoint(Set1, Set2)
    ;   '$ord_isect'(Set1, Set2, Intersection)
    ).
'$ord_isect'([], _, []).
'$ord_isect'([H1|T1], L2, Int) :- '$ord_isect2'(L2, H1, T1, Int).
'$ord_isect2'([], _, _, []).
'$ord_isect2'([H2|T2], H1, T1, Int) :- compare(Order, H1, H2), '$ord_isect3'(Order, H1, T1, H2, T2, Int).
'$ord_isect3'(<, _, T1, H2, T2, Int) :- '$ord_isect2'(T1, H2, T2, Int).
'$ord_isect3'(=, H1, T1, _, T2, [H1|Int]) :- '$ord_isect'(T1, T2, Int).
'$ord_isect3'(>, H1, T1, _, T2, Int) :- '$ord_isect2'(T2, H1, T1, Int).
ord_intersection([], L, [], L) :- !.
ord_intersection([_|_], [], [], []) :- !.
ord_intersection([H1|T1], [H2|T2], Intersection, Difference) :-
    compare(Diff, H1, H2),
    '$ord_intersection2'(Diff, H1, T1, H2, T2, Intersection, Difference).
'$ord_intersection2'(=, H1, T1, _, T2, [H1|T], Difference) :- ord_intersection(T1, T2, T, Difference).
'$ord_intersection2'(<, _, T1, H2, T2, Intersection, Difference) :-
    ord_intersection(T1, [H2|T2], Intersection, Difference).
'$ord_intersection2'(>, H1, T1, H2, T2, Intersection, [H2|HDiff]) :-
    ord_intersection([H1|T1], T2, Intersection, HDiff).
ord_add_element([], El, [El]).
ord_add_element([H|T], El, Add) :- compare(Order, H, El), '$ord_addel'(Order, H, T, El, Add).
'$ord_addel'(<, H, T, El, [H|Add]) :- ord_add_element(T, El, Add).
'$ord_addel'(=, H, T, _, [H|T]).
'$ord_addel'(>, H, T, El, [El,H|T]).
ord_del_element([], _, []).
ord_del_element([H|T], El, Del) :- compare(Order, H, El), '$ord_delel'(Order, H, T, El, Del).
'$ord_delel'(<, H, T, El, [H|Del]) :- ord_del_element(T, El, Del).
'$ord_delel'(=, _, T, _, T).
'$ord_delel'(>, H, T, _, [H|T]).
ord_selectchk(Item, [X|Set1], [X|Set2]) :- X @< Item, !, ord_selectchk(Item, Set1, Set2).
ord_selectchk(Item, [Item|Set1], Set1) :-
    (   Set1 == [] -> true
    ;   Set1 = [Y|_] -> Item @< Y
    ).
ord_memberchk(Item, [X1,X2,X3,X4|Xs]) :- !,
    compare(R4, Item, X4),
    (   R4 = (>) -> ord_memberchk(Item, Xs)
    ;   R4 = (<) ->
        compare(R2, Item, X2),
        (   R2 = (>) -> Item == X3
        ;   R2 = (<) -> Item == X1
        ;   true
        )
    ;   true
    ).
ord_memberchk(Item, [X1,X2|Xs]) :- !,
    compare(R2, Item, X2),
    (   R2 = (>) -> ord_memberchk(Item, Xs)
    ;   R2 = (<) -> Item == X1
    ;   true
    ).
ord_memberchk(Item, [X1]) :- Item == X1.
ord_subset([], _).
ord_subset([H1|T1], [H2|T2]) :- compare(Order, H1, H2), '$ord_subset_'(Order, H1, T1, T2).
'$ord_subset_'(>, H1, T1, [H2|T2]) :- compare(Order, H1, H2), '$ord_subset_'(Order, H1, T1, T2).
'$ord_subset_'(=, _, T1, T2) :- ord_subset(T1, T2).
'$ssu_nil'(X) :- X == [].
'$ssu_cons'(X, H, T) :- nonvar(X), X = [H|T].
ord_subtract(S1, _, Diff) :- '$ssu_nil'(S1), !, Diff = [].
ord_subtract(List, S2, Diff) :- '$ssu_nil'(S2), !, Diff = List.
ord_subtract(S1, L2, Diff) :- '$ssu_cons'(S1, H1, T1), !, '$ord_diff21'(L2, H1, T1, Diff).
ord_subtract(_, _, _) :- '$raise'('existence_error(matching_rule)').
'$ord_diff21'([], H1, T1, [H1|T1]).
'$ord_diff21'([H2|T2], H1, T1, Diff) :- compare(Order, H1, H2), '$ord_diff3'(Order, H1, T1, H2, T2, Diff).
'$ord_diff12'([], _, _, []).
'$ord_diff12'([H1|T1], H2, T2, Diff) :- compare(Order, H1, H2), '$ord_diff3'(Order, H1, T1, H2, T2, Diff).
'$ord_diff3'(<, H1, T1, H2, T2, [H1|Diff]) :- '$ord_diff12'(T1, H2, T2, Diff).
'$ord_diff3'(=, _, T1, _, T2, Diff) :- ord_subtract(T1, T2, Diff).
'$ord_diff3'(>, H1, T1, _, T2, Diff) :- '$ord_diff21'(T2, H1, T1, Diff).
ord_union(S, Union) :- '$ssu_nil'(S), !, Union = [].
ord_union(S, Union) :- '$ssu_cons'(S, _, _), !,
    length(S, N), '$ord_union_all'(N, S, Union, []).
ord_union(_, _) :- '$raise'('existence_error(matching_rule)').
'$ord_union_all'(N, Sets0, Union, Sets) :-
    (   N =:= 1 -> Sets0 = [Union|Sets]
    ;   N =:= 2 -> Sets0 = [Set1,Set2|Sets], ord_union(Set1, Set2, Union)
    ;   A is N >> 1, Z is N - A,
        '$ord_union_all'(A, Sets0, X, Sets1),
        '$ord_union_all'(Z, Sets1, Y, Sets),
        ord_union(X, Y, Union)
    ).
ord_union(S1, S2, Union) :- '$ssu_nil'(S1), !, Union = S2.
ord_union(S1, L2, Union) :- '$ssu_cons'(S1, H1, T1), !, '$ord_union2'(L2, H1, T1, Union).
ord_union(_, _, _) :- '$raise'('existence_error(matching_rule)').
'$ord_union2'(L2, H1, T1, Union) :- '$ssu_nil'(L2), !, Union = [H1|T1].
'$ord_union2'(L2, H1, T1, Union) :- '$ssu_cons'(L2, H2, T2), !,
    compare(Order, H1, H2), '$ord_union3'(Order, H1, T1, H2, T2, Union).
'$ord_union2'(_, _, _, _) :- '$raise'('existence_error(matching_rule)').
'$ord_union3'(<, H1, T1, H2, T2, Union) :- Union = [H1|Union0], '$ord_union2'(T1, H2, T2, Union0).
'$ord_union3'(=, H1, T1, _, T2, Union) :- Union = [H1|Union0], ord_union(T1, T2, Union0).
'$ord_union3'(>, H1, T1, H2, T2, Union) :- Union = [H2|Union0], '$ord_union2'(T2, H1, T1, Union0).
ord_union([], Set2, Set2, Set2).
ord_union([H|T], Set2, Union, New) :- '$ord_union_1'(Set2, H, T, Union, New).
'$ord_union_1'([], H, T, [H|T], []).
'$ord_union_1'([H2|T2], H, T, Union, New) :-
    compare(Order, H, H2), '$ord_union'(Order, H, T, H2, T2, Union, New).
'$ord_union'(<, H, T, H2, T2, [H|Union], New) :- '$ord_union_2'(T, H2, T2, Union, New).
'$ord_union'(>, H, T, H2, T2, [H2|Union], [H2|New]) :- '$ord_union_1'(T2, H, T, Union, New).
'$ord_union'(=, H, T, _, T2, [H|Union], New) :- ord_union(T, T2, Union, New).
'$ord_union_2'([], H2, T2, [H2|T2], [H2|T2]).
'$ord_union_2'([H|T], H2, T2, Union, New) :-
    compare(Order, H, H2), '$ord_union'(Order, H, T, H2, T2, Union, New).
ord_symdiff([], Set2, Set2).
ord_symdiff([H1|T1], Set2, Difference) :- '$ord_symdiff'(Set2, H1, T1, Difference).
'$ord_symdiff'([], H1, T1, [H1|T1]).
'$ord_symdiff'([H2|T2], H1, T1, Difference) :-
    compare(Order, H1, H2), '$ord_symdiff'(Order, H1, T1, H2, T2, Difference).
'$ord_symdiff'(<, H1, Set1, H2, T2, [H1|Difference]) :- '$ord_symdiff'(Set1, H2, T2, Difference).
'$ord_symdiff'(=, _, T1, _, T2, Difference) :- ord_symdiff(T1, T2, Difference).
'$ord_symdiff'(>, H1, T1, H2, Set2, [H2|Difference]) :- '$ord_symdiff'(Set2, H1, T1, Difference).

% SWI's string predicates written over the atom ones (which take strings).
sub_string(S, B, L, A, Sub) :-
    (   var(Sub) -> sub_atom(S, B, L, A, X), atom_string(X, Sub)
    ;   atom_string(X, Sub), sub_atom(S, B, L, A, X)
    ).
string_upper(S, U) :- upcase_atom(S, A), atom_string(A, U).
string_lower(S, L) :- downcase_atom(S, A), atom_string(A, L).
% atom_concat/3 and string_concat/3 with only the whole bound: the splits,
% one at a time (Kind 0 atom, 1 string).
'$concat_enum'(Whole, N, Kind, A, B) :-
    between(0, N, I), '$text_split'(Whole, I, Kind, A, B).

% sub_atom/5 with Sub and at most one of Before, Length, After bound: the
% candidates in SWI's order, each made only when reached.
'$sub_atom_enum'(Atom, N, B, L, A, Sub) :-
    ( integer(B) -> true ; between(0, N, B) ),
    (   integer(L) -> true
    ;   integer(A) -> L is N - B - A
    ;   M is N - B, between(0, M, L)
    ),
    '$sub_atom_at'(Atom, B, L, A, Sub).

% bagof/3 and setof/3 with free variables (W is x(V1, ..., Vn), Set 1 for
% setof): the solutions grouped by the free variables' bindings, groups in
% the standard order of those bindings, as SWI's bags.pl does. As there,
% witnesses that are variants of each other are unified before sorting, so
% that they fall in one group even when others sort between them.
'$bagof_free'(W, T, G, Bag, Set) :-
    findall(W-T, G, Answers),
    Answers \== [],
    (   ground(Answers) -> true ; '$bag_unify_variants'(Answers) ),
    (   Set =:= 1 -> sort(Answers, Sorted) ; keysort(Answers, Sorted) ),
    '$bag_pick'(Sorted, W, Bag0),
    (   Set =:= 1 -> sort(Bag0, Bag) ; Bag = Bag0 ).
'$bag_pick'([W0-T0|Rest0], W, Bag) :-
    '$bag_same'(Rest0, W0, Ts, Rest),
    (   Rest == []
    ->  W = W0, Bag = [T0|Ts]
    ;   (   W = W0, Bag = [T0|Ts]
        ;   '$bag_pick'(Rest, W, Bag)
        )
    ).
'$bag_same'([V-T|Rest0], W, [T|Ts], Rest) :-
    V == W, !,
    '$bag_same'(Rest0, W, Ts, Rest).
'$bag_same'([V-T|Rest0], W, [T|Ts], Rest) :-
    V =@= W, !, V = W,
    '$bag_same'(Rest0, W, Ts, Rest).
'$bag_same'(Rest, _, [], Rest).
'$bag_unify_variants'([]).
'$bag_unify_variants'([W-_|Rest]) :-
    '$bag_unify_with'(Rest, W),
    '$bag_unify_variants'(Rest).
'$bag_unify_with'([], _).
'$bag_unify_with'([V-_|Rest], W) :-
    (   V =@= W -> V = W ; true ),
    '$bag_unify_with'(Rest, W).
