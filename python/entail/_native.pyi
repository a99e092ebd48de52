"""Types of the Rust extension; the public API wraps it (see `entail`)."""

from typing import Any, Callable, Dict, List, Optional, Tuple, Union

class NativeJudge:
    def __init__(
        self,
        workers: int,
        inference_limit: int,
        timeout: float,
        memory_mb: int,
        isomorphic: str,
        engine: str,
        worker_command: List[str],
        renamings: int = 1,
        seed: int = 0,
    ) -> None: ...
    def score_batch(
        self,
        tasks: List[Union[str, Tuple[str, Optional[str], Optional[str], Optional[str]]]],
        task_of: List[int],
        predictions: List[str],
        progress: Optional[Callable[[int], Any]] = None,
    ) -> List[Dict[str, Any]]: ...
    def native_stats(self) -> Optional[Dict[str, Any]]: ...

def serve_worker() -> None: ...
def prove(
    text: Optional[str],
    directory: Optional[str],
    timeout: Optional[float],
    supports: bool,
    supports_cap: int,
    supports_timeout: float,
    instantiated: bool,
    countermodels: bool,
) -> Dict[str, Any]: ...
def fol_solve(
    program: Optional[str],
    premises: Optional[List[str]],
    conclusion: Optional[str],
    timeout: Optional[float],
    countermodels: bool,
) -> Dict[str, Any]: ...
def fol_solve_batch(
    lines: List[str], timeout: Optional[float], countermodels: bool, workers: int
) -> List[Dict[str, Any]]: ...
def gen_slr(
    levels: Tuple[int, int],
    count: int,
    seed: int,
    split: str,
    prompt: str,
    language: Optional[str],
    threads: int,
    worker_command: List[str],
    shard: Tuple[int, int],
    held_out: Tuple[int, int],
    theta: Optional[str] = None,
) -> str: ...
def gen_logicon(
    k: Tuple[int, int],
    count: int,
    seed: int,
    variant: str,
    labels: str,
    prompt: Optional[str],
    max_distance: int,
    atoms: Tuple[int, int],
    graph_nodes: int,
    statement_atoms: int,
    task: str,
    groups: Tuple[int, int],
    group_atoms: int,
    threads: int,
    shard: Tuple[int, int],
) -> str: ...
def gen_divlogic(
    kind: str,
    count: int,
    seed: int,
    rotations: bool,
    n: int,
    threads: int,
    shard: Tuple[int, int],
) -> str: ...
def gen_logicgraph(
    output: str,
    tier: str,
    paths: Optional[Tuple[int, int]],
    depth: Tuple[int, int],
    forms: List[str],
    distractors: int,
    max_atoms: int,
    count: int,
    seed: int,
    prompt: bool,
    threads: int,
) -> None: ...
def report_page(inputs: List[Tuple[str, str, str]], tasks: List[str]) -> str: ...
def show_item(kind: str, item: str, unlabelled: bool = False) -> Tuple[str, str]: ...
def show_logicgraph(
    dir: str, answer: Optional[Tuple[str, str]] = None, timeout: float = 10.0
) -> Tuple[str, str]: ...
