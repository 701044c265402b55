"""Pairwise precision, recall and F1 of stories against gold ones: how tests and benchmarks
measure the linker, which never uses it."""

from __future__ import annotations

from collections import defaultdict


def pairwise_prf(pred: dict[str, str], gold: dict[str, str]) -> tuple[float, float, float]:
    """Pairwise precision, recall and F1 of a clustering against gold labels."""

    def pairs(labels: dict[str, str]) -> set[tuple[str, str]]:
        groups: dict[str, list[str]] = defaultdict(list)
        for doc, label in labels.items():
            groups[label].append(doc)
        out: set[tuple[str, str]] = set()
        for members in groups.values():
            members.sort()
            out.update(
                (members[i], members[j])
                for i in range(len(members))
                for j in range(i + 1, len(members))
            )
        return out

    p_pairs, g_pairs = pairs(pred), pairs(gold)
    tp = len(p_pairs & g_pairs)
    prec = tp / len(p_pairs) if p_pairs else 1.0
    rec = tp / len(g_pairs) if g_pairs else 1.0
    f1 = 2 * prec * rec / (prec + rec) if prec + rec else 0.0
    return prec, rec, f1
