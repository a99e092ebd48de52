% The native evaluator's library: SWI-Prolog list predicates written in
% Prolog, run by the native engine itself. Each gives the same solutions in
% the same order as SWI-Prolog 9; the '$…' checks hand anything outside the
% modes handled here (where SWI raises an error) back to the fallback engine.

member(X, [X|_]).
member(X, [_|T]) :- member(X, T).

memberchk(X, L) :- member(X, L), !.

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
    (   integer(X) -> X >= L, X =< H
    ;   L =< H, '$between'(L, H, X)
    ).
'$between'(L, _, L).
'$between'(L, H, X) :- L < H, L1 is L + 1, '$between'(L1, H, X).

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
