//! A small bounded pool: at most `max` items (adapter processes) exist at once, idle ones
//! are reused, and a caller holding a [`Lease`] owns one slot until it drops it.

use std::sync::{Condvar, Mutex, PoisonError};

/// A bounded pool of `T`.
pub(crate) struct Pool<T> {
    state: Mutex<State<T>>,
    freed: Condvar,
    max: usize,
}

struct State<T> {
    idle: Vec<T>,
    /// Slots taken: idle items plus leases.
    live: usize,
}

impl<T> Pool<T> {
    /// An empty pool of at most `max` (at least 1) items.
    pub(crate) fn new(max: usize) -> Pool<T> {
        Pool {
            state: Mutex::new(State {
                idle: Vec::new(),
                live: 0,
            }),
            freed: Condvar::new(),
            max: max.max(1),
        }
    }

    /// Adds an idle item, if there is room (otherwise it is dropped).
    pub(crate) fn put(&self, item: T) {
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        if state.live < self.max {
            state.live += 1;
            state.idle.push(item);
            self.freed.notify_one();
        }
    }

    /// One slot: with an idle item when there is one, empty when a new item may be made;
    /// waits while every slot is leased.
    pub(crate) fn lease(&self) -> Lease<'_, T> {
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        loop {
            if let Some(item) = state.idle.pop() {
                return Lease {
                    pool: self,
                    item: Some(item),
                };
            }
            if state.live < self.max {
                state.live += 1;
                return Lease {
                    pool: self,
                    item: None,
                };
            }
            state = self
                .freed
                .wait(state)
                .unwrap_or_else(PoisonError::into_inner);
        }
    }
}

/// A slot of a [`Pool`]; its item goes back to the pool on drop, and an empty slot is
/// freed.
pub(crate) struct Lease<'a, T> {
    pool: &'a Pool<T>,
    item: Option<T>,
}

impl<T> Lease<'_, T> {
    /// The item in the slot, if any.
    pub(crate) fn item(&mut self) -> Option<&mut T> {
        self.item.as_mut()
    }

    /// Puts `item` in the slot (dropping what was there) and returns it.
    pub(crate) fn set(&mut self, item: T) -> &mut T {
        self.item.insert(item)
    }

    /// Drops the item in the slot (a broken process: it is killed).
    pub(crate) fn clear(&mut self) {
        self.item = None;
    }
}

impl<T> Drop for Lease<'_, T> {
    fn drop(&mut self) {
        let mut state = self
            .pool
            .state
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        match self.item.take() {
            Some(item) => state.idle.push(item),
            None => state.live -= 1,
        }
        self.pool.freed.notify_one();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reuses_and_bounds() {
        let pool = Pool::new(2);
        let mut a = pool.lease();
        assert!(a.item().is_none());
        a.set(1);
        let mut b = pool.lease();
        b.set(2);
        drop(a);
        let mut c = pool.lease();
        assert_eq!(c.item().copied(), Some(1));
        c.clear();
        drop(c);
        let mut d = pool.lease();
        assert!(d.item().is_none(), "a cleared slot is free for a new item");
        drop(b);
        drop(d);
        pool.put(3);
        let mut e = pool.lease();
        let mut f = pool.lease();
        let mut both = [e.item().copied(), f.item().copied()];
        both.sort();
        assert_eq!(both, [Some(2), Some(3)], "idle items are reused");
    }
}
