//! A few seconds of each fuzz target in the normal test run: the seed
//! corpus, then generated and mutated inputs from a fixed seed. The long
//! runs are `.ci/slow` and RELIABILITY.md.

use choro_fuzz::driver::{self, escaped, RunOptions};
use choro_fuzz::targets::{self, moves::reference};
use std::path::PathBuf;
use std::time::Duration;

fn smoke(name: &str, max_inputs: u64) {
    // The searcher's own faults are counted here, not failed on; `.ci/slow`
    // decides (RELIABILITY.md).
    let mut t = targets::by_name(
        name,
        targets::ServerKnobs {
            lenient_search: true,
            soft: None,
            // The gui target's engine: this build's fuzz binary serving the
            // protocol, as `choro` does.
            engine: Some(targets::gui::EngineCmd {
                path: env!("CARGO_BIN_EXE_choro-fuzz").into(),
                args: vec!["--serve-protocol".into()],
            }),
        },
    )
    .expect("target");
    let corpus = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("corpus")
        .join(t.corpus());
    assert!(
        driver::load_corpus(&corpus).len() >= 10,
        "seed corpus of {name}"
    );
    let o = RunOptions {
        time: Duration::from_millis(1500),
        max_inputs: Some(max_inputs),
        seed: 20240601,
        corpus: Some(corpus),
    };
    match driver::run(t.as_mut(), &o, &mut |_| {}) {
        Ok(s) => eprintln!("{name}: {} inputs; {}", s.inputs, s.stats),
        Err(f) => panic!("{name}: {}\ninput: {}", f.message, escaped(&f.input, 4000)),
    }
}

#[test]
fn position_parser() {
    smoke("position", 50_000);
}

#[test]
fn move_parser() {
    smoke("move", 100_000);
}

#[test]
fn make_move() {
    smoke("makemove", 3_000);
}

#[test]
fn race_strings_and_decisions() {
    smoke("race", 3_000);
}

/// Finding of the first race volume run (RELIABILITY.md, finding 10): a
/// race at tick 4294967295 was accepted and its next tick overflowed.
#[test]
fn race_at_the_largest_tick_is_rejected() {
    let input = "lango:8 0,2,2,0,2,2,0,1/0,4,3,0,4,5,0,5/5,2,4,0,1,1,6,4/2,0,3,0,1,1,0,1 a r \
                 4294967295.1 decide=again,hand=3,at=j,origin=l,front=1,single=0,laps=9 done 5\n26\n\n-";
    let mut t = targets::by_name("race", targets::ServerKnobs::default()).expect("target");
    assert_eq!(t.check(input.as_bytes()), Ok(()));
    assert!(t.stats().contains("rejected 1"), "{}", t.stats());
}

/// The second finding of the race volume runs (RELIABILITY.md, finding
/// 11): a single-counter increment with a hand of 3 lost two counters.
#[test]
fn race_single_increment_with_a_larger_hand_is_rejected() {
    let input = "lango:8 0,2,2,0,2,2,0,1/0,4,3,0,4,5,0,5/5,2,2,0,1,1,6,4/2,0,3,0,1,1,0,3 a r 31.1 \
                 decide=again,hand=3,at=j,origin=l,front=1,single=1,laps=9 done 5\n+\n-\n+-\n";
    let mut t = targets::by_name("race", targets::ServerKnobs::default()).expect("target");
    assert_eq!(t.check(input.as_bytes()), Ok(()));
    assert!(t.stats().contains("rejected 1"), "{}", t.stats());
}

#[test]
fn solver_inputs() {
    smoke("solve", 20_000);
}

#[test]
fn gui_messages() {
    smoke("gui", 300);
}

#[test]
fn protocol_server() {
    smoke("server", 400);
}

/// The same target at the protocol's default `Hash`.
#[test]
fn protocol_server_default_hash() {
    smoke("server-default", 60);
}

/// The second reading of the move grammar agrees with PROTOCOL.md's
/// examples, so that a fuzz verdict means something.
#[test]
fn the_reference_grammar_reads_the_examples() {
    for (s, want) in [
        ("m", Some("m")),
        ("M", Some("m")),
        ("X3", Some("x3")),
        ("013", Some("13")),
        ("~k=~i-", Some("~k=~i-")),
        ("xc+++---+++", Some("xc+++---+++")),
        ("~11=9+-", Some("~11=9+-")),
        ("", None),
        ("m=", None),
        ("0", None),
        ("33", None),
        ("m=3", None),
        ("m3", None),
        ("x", None),
        ("m+é", None),
    ] {
        assert_eq!(reference(s).as_deref(), want, "{s}");
    }
    let max = format!("m{}", "+".repeat(61));
    assert!(reference(&max).is_some());
    assert!(reference(&format!("{max}+")).is_none());
}

/// A failing check is reported with its input, not swallowed.
#[test]
fn a_broken_invariant_is_a_finding() {
    struct Broken;
    impl targets::Target for Broken {
        fn name(&self) -> &'static str {
            "broken"
        }
        fn dict(&self) -> &'static [&'static str] {
            &["x"]
        }
        fn max_len(&self) -> usize {
            8
        }
        fn generate(&mut self, rng: &mut choro_fuzz::rng::Rng) -> Vec<u8> {
            vec![rng.below(4) as u8]
        }
        fn mutate(&mut self, _: &mut choro_fuzz::rng::Rng, b: &[u8], _: &[u8]) -> Vec<u8> {
            b.to_vec()
        }
        fn check(&mut self, input: &[u8]) -> Result<(), String> {
            if input == [3] {
                Err("three".into())
            } else {
                Ok(())
            }
        }
        fn stats(&self) -> String {
            String::new()
        }
    }
    let o = RunOptions {
        time: Duration::from_secs(5),
        max_inputs: Some(10_000),
        seed: 1,
        corpus: None,
    };
    let f = driver::run(&mut Broken, &o, &mut |_| {})
        .err()
        .expect("a finding");
    assert_eq!((f.input, f.message), (vec![3], "three".to_string()));
}
