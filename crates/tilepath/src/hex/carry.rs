//! Carrying a growing hexagonal search or field over weight edits, without starting over.
//!
//! A search grown from a root (a search's start, a field's goal) labels hexagons with a
//! cost and the direction of the neighbour it came from; closed labels are final, the
//! others wait in the open list. After weights changed (a hexagon blocked, freed, or
//! given another terrain), [`carry_over`] brings the labels to what the same search
//! would know on the edited map:
//!
//! 1. *Broken ways.* Near an edit, a label whose hexagon the agent can no longer stand
//!    on, or whose cost is no longer its parent's plus the step between them (the step
//!    got dearer or cheaper, or the parent lost its label), is forgotten, and so is
//!    every label whose chain of parents runs through it.
//! 2. *Re-seeding.* Each forgotten hexagon the agent can stand on takes the best cost
//!    its closed neighbours offer and is opened.
//! 3. *New moves.* Every closed hexagon near an edit offers its steps on the edited map
//!    again: a neighbour reached more cheaply is opened, closed before or not.
//!
//! "Near" is within `r + 1` steps of an edited hexagon for agents of radius `r`: where the
//! agent stands changes only within `r` of it, step costs only next to it. Afterwards
//! every label's cost is that of a way on the edited map and every closed hexagon has
//! offered every step it has there, which is all the search's exactness rests on, once it
//! lets a closed hexagon open again. `O(e r²)` for `e` edits, plus the forgotten
//! hexagons, plus `O(log n)` per hexagon opened.

use super::coord::HexDirection;
use super::map::HexMap;
use super::records::Records;
use crate::grid::Cost;
use crate::search::MAX_FORGOTTEN;

/// How the labels of a carried search are costed and keyed.
pub(super) struct Growth<K> {
    /// The agent's radius: it stands where the clearance exceeds it.
    pub(super) radius: u32,
    /// Every step costs 2 (breadth-first), not the two weights.
    pub(super) unit: bool,
    /// The open-list key and tie of a hexagon index at a cost.
    pub(super) key: K,
}

impl<K: Fn(usize, Cost) -> (Cost, Cost)> Growth<K> {
    #[inline]
    fn stands(&self, map: &HexMap, i: usize) -> bool {
        u32::from(map.clearance_at(i)) > self.radius
    }

    #[inline]
    fn step(&self, map: &HexMap, from: usize, to: usize) -> Cost {
        if self.unit {
            2
        } else {
            Cost::from(map.weight_at(from)) + Cost::from(map.weight_at(to))
        }
    }

    fn offer(&self, records: &mut Records, i: usize, g: Cost, via: HexDirection) {
        let (key, tie) = (self.key)(i, g);
        records.offer(i, g, via as u8, key, tie);
    }
}

/// Runs the three passes of the module docs over `records` for the hexagons `edited`
/// (indices whose weight changed since the labels were made), on `map` as it is now;
/// `forgotten` is scratch. Returns false, with the labels half carried over (start over),
/// when the root lost its footing or more than
/// [`MAX_FORGOTTEN`] labels lost their way.
#[must_use]
pub(super) fn carry_over<K: Fn(usize, Cost) -> (Cost, Cost)>(
    records: &mut Records,
    map: &HexMap,
    growth: &Growth<K>,
    edited: impl Iterator<Item = usize> + Clone,
    forgotten: &mut Vec<u32>,
) -> bool {
    let near = || {
        edited.clone().flat_map(move |e| {
            map.hex(e)
                .within(growth.radius + 1)
                .filter_map(move |h| map.index(h))
        })
    };
    // 1. Broken ways, and everything found through them.
    forgotten.clear();
    for i in near() {
        if !records.is_seen(i) {
            continue;
        }
        let holds = growth.stands(map, i)
            && match records.parent(map.hex(i), i) {
                None => true,
                Some(p) => map.index(p).is_some_and(|p| {
                    records.is_seen(p) && records.g[i] == records.g[p] + growth.step(map, p, i)
                }),
            };
        if holds {
            continue;
        }
        if records.via[i] == u8::MAX {
            return false;
        }
        records.forget(i);
        forgotten.push(i as u32);
    }
    let mut k = 0;
    while k < forgotten.len() {
        let f = map.hex(forgotten[k] as usize);
        k += 1;
        for d in HexDirection::ALL {
            if let Some(n) = map.index(f.neighbour(d))
                && records.is_seen(n)
                && records.via[n] == d as u8
            {
                records.forget(n);
                forgotten.push(n as u32);
            }
        }
        if forgotten.len() > MAX_FORGOTTEN {
            return false;
        }
    }
    // 2. Re-seeding from the closed labels that remain.
    for &f in forgotten.iter() {
        let f = f as usize;
        if !growth.stands(map, f) {
            continue;
        }
        let mut best: Option<(Cost, HexDirection)> = None;
        for (n, d) in map.neighbours(f) {
            if records.is_closed(n) {
                let g = records.g[n] + growth.step(map, n, f);
                if best.is_none_or(|(b, _)| g < b) {
                    best = Some((g, d.opposite()));
                }
            }
        }
        if let Some((g, via)) = best {
            growth.offer(records, f, g, via);
        }
    }
    // 3. New moves of the closed labels near the edits.
    for i in near() {
        if !records.is_closed(i) {
            continue;
        }
        let g = records.g[i];
        for (n, d) in map.neighbours(i) {
            if !growth.stands(map, n) {
                continue;
            }
            let ng = g + growth.step(map, i, n);
            if !records.is_seen(n) || ng < records.g[n] {
                growth.offer(records, n, ng, d);
            }
        }
    }
    true
}
