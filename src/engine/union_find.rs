//! Union-find over the cells plus four virtual edge nodes, so that "has
//! someone won?" is one comparison after each stone.

use super::cell::MAX_SIZE;

const CELLS: usize = MAX_SIZE as usize * MAX_SIZE as usize;
const NODES: usize = CELLS + 4;

/// The four board edges as extra nodes after the cells.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Edge {
    Left = 0,
    Right = 1,
    Top = 2,
    Bottom = 3,
}

#[derive(Clone, Debug)]
pub(crate) struct UnionFind {
    parent: [u16; NODES],
}

impl UnionFind {
    pub(crate) fn new() -> Self {
        let mut parent = [0u16; NODES];
        for (i, p) in parent.iter_mut().enumerate() {
            *p = i as u16;
        }
        UnionFind { parent }
    }

    pub(crate) fn edge(edge: Edge) -> usize {
        CELLS + edge as usize
    }

    pub(crate) fn find(&mut self, mut x: usize) -> usize {
        while self.parent[x] as usize != x {
            // Path halving keeps trees flat without recursion.
            let grand = self.parent[self.parent[x] as usize];
            self.parent[x] = grand;
            x = grand as usize;
        }
        x
    }

    pub(crate) fn union(&mut self, a: usize, b: usize) {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra != rb {
            self.parent[ra] = rb as u16;
        }
    }

    pub(crate) fn connected(&mut self, a: usize, b: usize) -> bool {
        self.find(a) == self.find(b)
    }
}
