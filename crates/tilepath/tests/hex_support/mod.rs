//! The independent hexagonal oracle of the hexagonal tests (`shapes`): tiles in offset
//! coordinates with Red Blob Games' neighbour tables, sharing nothing with the crate's
//! axial code, and a Dijkstra and a nearest-goal search over them.

#![allow(dead_code)]

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

use tilepath::shape::HexLayout;

/// A small xorshift generator: the random maps and the edits of the hex tests.
pub struct Rng(pub u64);

impl Rng {
    /// The next number (never 0 when seeded with an odd number).
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A tile of `tiles`, any.
    pub fn tile(&mut self, tiles: &Tiles) -> (i32, i32) {
        let c = (self.next() % tiles.columns as u64) as i32;
        (c, (self.next() % tiles.rows as u64) as i32)
    }
}

/// A map of `columns × rows` tiles, 0 blocking.
#[derive(Clone, Debug)]
pub struct Tiles {
    pub layout: HexLayout,
    pub columns: i32,
    pub rows: i32,
    pub weights: Vec<u8>,
}

impl Tiles {
    pub fn random(layout: HexLayout, seed: u64) -> Self {
        let mut rng = Rng(seed | 1);
        let mut next = move || rng.next();
        let columns = 3 + (next() % 14) as i32;
        let rows = 3 + (next() % 14) as i32;
        let weights = (0..columns * rows)
            .map(|_| match next() % 10 {
                0..=1 => 0,
                2 => 3,
                3 => 9,
                _ => 1,
            })
            .collect();
        Self {
            layout,
            columns,
            rows,
            weights,
        }
    }

    pub fn weight(&self, (c, r): (i32, i32)) -> u8 {
        if c < 0 || r < 0 || c >= self.columns || r >= self.rows {
            0
        } else {
            self.weights[(r * self.columns + c) as usize]
        }
    }

    /// The six neighbours of tile `(c, r)`, from the offset tables alone.
    pub fn neighbours(&self, (c, r): (i32, i32)) -> [(i32, i32); 6] {
        const AXIAL: [(i32, i32); 6] = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)];
        const SHIFTED: [(i32, i32); 6] = [(1, 0), (1, -1), (0, -1), (-1, 0), (0, 1), (1, 1)];
        const UNSHIFTED: [(i32, i32); 6] = [(1, 0), (0, -1), (-1, -1), (-1, 0), (-1, 1), (0, 1)];
        let transpose = |t: [(i32, i32); 6]| t.map(|(a, b)| (b, a));
        let table = match self.layout {
            HexLayout::Row | HexLayout::Column => AXIAL,
            HexLayout::RowOdd if r % 2 == 1 => SHIFTED,
            HexLayout::RowOdd => UNSHIFTED,
            HexLayout::RowEven if r % 2 == 0 => SHIFTED,
            HexLayout::RowEven => UNSHIFTED,
            HexLayout::ColumnOdd if c % 2 == 1 => transpose(SHIFTED),
            HexLayout::ColumnOdd => transpose(UNSHIFTED),
            HexLayout::ColumnEven if c % 2 == 0 => transpose(SHIFTED),
            HexLayout::ColumnEven => transpose(UNSHIFTED),
        };
        table.map(|(dc, dr)| (c + dc, r + dr))
    }

    /// True when every tile within `radius` steps of `t` exists and is free.
    pub fn can_stand(&self, t: (i32, i32), radius: u32) -> bool {
        let mut ring = vec![t];
        let mut seen = vec![t];
        for _ in 0..radius {
            let mut next = Vec::new();
            for &x in &ring {
                for n in self.neighbours(x) {
                    if !seen.contains(&n) {
                        seen.push(n);
                        next.push(n);
                    }
                }
            }
            ring = next;
        }
        seen.iter().all(|&x| self.weight(x) > 0)
    }

    /// The cheapest cost (half steps, `a + b` a step), or with `unit` the fewest steps
    /// times 2.
    pub fn oracle(&self, from: (i32, i32), to: (i32, i32), radius: u32, unit: bool) -> Option<u64> {
        let mut best: HashMap<(i32, i32), u64> = HashMap::from([(from, 0)]);
        let mut open = BinaryHeap::from([(Reverse(0u64), from)]);
        while let Some((Reverse(d), t)) = open.pop() {
            if t == to {
                return Some(d);
            }
            if best.get(&t).is_some_and(|&b| b < d) {
                continue;
            }
            for n in self.neighbours(t) {
                if !self.can_stand(n, radius) {
                    continue;
                }
                let step = if unit {
                    2
                } else {
                    u64::from(self.weight(t)) + u64::from(self.weight(n))
                };
                if best.get(&n).is_none_or(|&b| d + step < b) {
                    best.insert(n, d + step);
                    open.push((Reverse(d + step), n));
                }
            }
        }
        None
    }

    /// The reachable tile nearest to `to` (fewest steps, then cheapest): its steps to
    /// `to` and its cost from `from`.
    pub fn nearest(&self, from: (i32, i32), to: (i32, i32), radius: u32) -> Option<(u32, u64)> {
        if !self.can_stand(from, radius) {
            return None;
        }
        let goal = self.layout.hex(to.0, to.1);
        let mut best: HashMap<(i32, i32), u64> = HashMap::from([(from, 0)]);
        let mut open = BinaryHeap::from([(Reverse(0u64), from)]);
        let mut done: HashMap<(i32, i32), u64> = HashMap::new();
        while let Some((Reverse(d), t)) = open.pop() {
            if done.contains_key(&t) {
                continue;
            }
            done.insert(t, d);
            for n in self.neighbours(t) {
                if !self.can_stand(n, radius) {
                    continue;
                }
                let step = u64::from(self.weight(t)) + u64::from(self.weight(n));
                if best.get(&n).is_none_or(|&b| d + step < b) {
                    best.insert(n, d + step);
                    open.push((Reverse(d + step), n));
                }
            }
        }
        done.into_iter()
            .map(|(t, d)| (self.layout.hex(t.0, t.1).distance(goal), d))
            .min()
    }

    pub fn ascii(&self) -> String {
        (0..self.rows)
            .map(|r| {
                let row: String = (0..self.columns)
                    .map(|c| match self.weight((c, r)) {
                        0 => '#',
                        1 => '.',
                        w => char::from(b'0' + w),
                    })
                    .collect();
                if r % 2 == 1 { format!(" {row}") } else { row }
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// The cheapest cost (half steps) between `from` and every tile an agent of `radius`
    /// reaches from it; steps cost the same both ways, so also toward `from`.
    pub fn costs_from(&self, from: (i32, i32), radius: u32) -> HashMap<(i32, i32), u64> {
        let mut done: HashMap<(i32, i32), u64> = HashMap::new();
        if !self.can_stand(from, radius) {
            return done;
        }
        let mut open = BinaryHeap::from([(Reverse(0u64), from)]);
        while let Some((Reverse(d), t)) = open.pop() {
            if done.contains_key(&t) {
                continue;
            }
            done.insert(t, d);
            for n in self.neighbours(t) {
                if self.can_stand(n, radius) && !done.contains_key(&n) {
                    let step = u64::from(self.weight(t)) + u64::from(self.weight(n));
                    open.push((Reverse(d + step), n));
                }
            }
        }
        done
    }
}
