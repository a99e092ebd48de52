% Every FOF connective, $true, $false and quoted atoms. 'q' is q.
fof(a1, axiom, (p <~> q) <=> ~ (p <=> 'q')).
fof(a2, axiom, (p ~| q) <=> ~ (p | q)).
fof(a3, axiom, (p ~& q) <=> ~ (p & q)).
fof(a4, axiom, (p <= q) <=> (q => p)).
fof(a5, axiom, $true & ~ $false).
fof(a6, axiom, 'big Sam' != sam).
fof(goal, conjecture, ((p <~> q) | (p <=> q)) & 'big Sam' != sam).
