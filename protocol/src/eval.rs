//! `eval`: the static evaluation, term by term (PROTOCOL.md, "`eval`").

use choro_engine::eval::{Eval, Evaluator};
use choro_engine::Position;

/// The lines of `eval`: one per term, then the total, all from the side to
/// move's point of view (centi-counters; 100 = one counter).
pub fn lines(pos: &Position) -> Vec<String> {
    let e = Eval::default();
    let mut out: Vec<String> = e
        .terms(pos)
        .iter()
        .map(|t| {
            format!(
                "term {} mover {} opponent {} score {}",
                t.name, t.mover, t.opponent, t.score
            )
        })
        .collect();
    out.push(format!(
        "total {} side to move {}",
        e.evaluate(pos),
        pos.side_to_move()
    ));
    out
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
    use super::*;

    #[test]
    fn terms_then_a_total_that_is_their_sum() {
        let p: Position =
            "didinga:8 0,1,0,1,0,0,0,7/13,4,0,0,8,1,1,0/1,3,4,3,0,4,3,0/0,1,2,1,2,1,2,1 a m 28"
                .parse()
                .unwrap();
        let l = lines(&p);
        let sum: i64 = l[..l.len() - 1]
            .iter()
            .map(|t| t.rsplit(' ').next().unwrap().parse::<i64>().unwrap())
            .sum();
        let total: Vec<&str> = l.last().unwrap().split(' ').collect();
        assert_eq!(total[0], "total");
        assert_eq!(total[1].parse::<i64>().unwrap(), sum);
        assert!(l.iter().any(|t| t.starts_with("term material mover ")));
    }
}
