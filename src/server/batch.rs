//! Group writes: whatever has queued up behind the first request goes in
//! the same write, so a busy writer amortises each commit or system call.

use tokio::sync::mpsc::UnboundedReceiver;

/// `first` and up to `most - 1` more already waiting in `queue`, in order.
pub fn gather<T>(first: T, queue: &mut UnboundedReceiver<T>, most: usize) -> Vec<T> {
    let mut batch = vec![first];
    while batch.len() < most
        && let Ok(more) = queue.try_recv()
    {
        batch.push(more);
    }
    batch
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn takes_what_waits_up_to_the_limit() {
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
        for i in 1..=5 {
            tx.send(i).unwrap();
        }
        assert_eq!(gather(0, &mut rx, 4), [0, 1, 2, 3]);
        assert_eq!(gather(9, &mut rx, 4), [9, 4, 5]);
    }
}
