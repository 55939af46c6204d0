//! The scheduler: pairings (round robin or gauntlet), the list of games in
//! colour-swapped pairs, `concurrency` workers that each own their engine
//! processes, and the tally the main thread keeps as games come in, with
//! the SPRT stop.

use crate::engine::{Engine, EngineSpec};
use crate::openings::OpeningPlan;
use crate::parts::Job;
use crate::record::{GameResult, Reason};
use crate::referee::{self, GameJob, Played, Settings, Slot};
use crate::stats::{GameScore, Penta, Sprt, SprtDecision, Wdl};
use choro_engine::threads::Crew;
use choro_engine::Position;
use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

/// A whole match.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The engines, in the order given.
    pub engines: Vec<EngineSpec>,
    /// The first engine plays each of the others; otherwise every engine
    /// plays every other.
    pub gauntlet: bool,
    /// Games per pairing (even: games come in pairs).
    pub games: u64,
    /// What is the same for every game.
    pub settings: Settings,
    /// Where the games start.
    pub openings: OpeningPlan,
    /// How many games are played at once.
    pub concurrency: usize,
    /// Only for a match of one pairing; stops after the first complete game
    /// pair, in the order of the schedule, whose LLR crosses a bound (not in
    /// a part: `choro merge` applies the same rule to the parts' games).
    pub sprt: Option<Sprt>,
    /// Play only this part of the game pairs (`--job K/N`).
    pub part: Option<Job>,
}

/// Two engines that meet; scores are counted from `first`'s side.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Pairing {
    pub(crate) first: usize,
    pub(crate) second: usize,
}

/// The results of one pairing so far.
#[derive(Clone, Debug, Default)]
pub struct PairingTally {
    /// Every game's win, draw and loss, from `first`'s side.
    pub wdl: Wdl,
    /// The completed game pairs.
    pub penta: Penta,
    pub(crate) reasons: BTreeMap<Reason, u64>,
    /// Games played with `first` as A, and their W/D/L from `first`'s side.
    pub(crate) first_as_a: Wdl,
    /// The first game of each pair whose second game is still out.
    pending: HashMap<u64, GameScore>,
}

/// The SPRT's standing.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct SprtState {
    /// The test.
    pub sprt: Sprt,
    /// The log-likelihood ratio so far.
    pub llr: f64,
    /// The decision, once a bound is crossed.
    pub decision: Option<SprtDecision>,
}

/// Everything counted so far.
#[derive(Clone, Debug)]
pub struct Tally {
    pub(crate) names: Vec<String>,
    pub(crate) pairings: Vec<Pairing>,
    /// One tally per pairing, in the schedule's order.
    pub per_pairing: Vec<PairingTally>,
    pub(crate) planned: u64,
    /// Games finished.
    pub played: u64,
    pub(crate) plies: u64,
    /// Per engine: the games it lost by failing, by reason.
    pub failures: Vec<BTreeMap<Reason, u64>>,
    /// The SPRT's standing, for a match that runs one.
    pub sprt: Option<SprtState>,
    pub(crate) started: Instant,
}

impl Tally {
    fn score_for(p: Pairing, job: &GameJob, result: GameResult) -> GameScore {
        let first_is_a = job.engines[0] == p.first;
        let a_score = match result {
            GameResult::AWins => GameScore::Win,
            GameResult::BWins => GameScore::Loss,
            GameResult::Draw => GameScore::Draw,
        };
        if first_is_a {
            a_score
        } else {
            a_score.flip()
        }
    }

    fn add(&mut self, played: &Played) {
        self.add_game(
            &played.job,
            played.result,
            played.reason,
            played.failed,
            played.record.moves.len() as u64,
        );
    }

    /// Count one finished game: `choro match` as games come in, `choro
    /// merge` for the games of its parts, in the order of their numbers.
    pub(crate) fn add_game(
        &mut self,
        job: &GameJob,
        result: GameResult,
        reason: Reason,
        failed: Option<usize>,
        plies: u64,
    ) {
        self.played += 1;
        self.plies += plies;
        if let Some(e) = failed {
            *self.failures[e].entry(reason).or_default() += 1;
        }
        let p = self.pairings[job.pairing];
        let score = Self::score_for(p, job, result);
        let t = &mut self.per_pairing[job.pairing];
        t.wdl.add(score);
        if job.engines[0] == p.first {
            t.first_as_a.add(score);
        }
        *t.reasons.entry(reason).or_default() += 1;
        match t.pending.remove(&job.pair) {
            Some(other) => {
                t.penta.add(other, score);
                // The SPRT is judged on complete pairs only: its standing
                // changes when a pair completes, and only then.
                if let Some(s) = &mut self.sprt {
                    (s.llr, s.decision) = s.sprt.assess(&self.per_pairing[0].penta);
                }
            }
            None => {
                t.pending.insert(job.pair, score);
            }
        }
    }

    /// Points and games of each engine over all its pairings.
    pub(crate) fn standings(&self) -> Vec<(f64, u64)> {
        let mut v = vec![(0.0, 0u64); self.names.len()];
        for (p, t) in self.pairings.iter().zip(&self.per_pairing) {
            let g = t.wdl.games();
            v[p.first].0 += t.wdl.points();
            v[p.first].1 += g;
            v[p.second].0 += g as f64 - t.wdl.points();
            v[p.second].1 += g;
        }
        v
    }
}

/// How a match ended.
#[derive(Clone, Debug)]
pub struct MatchSummary {
    /// What was counted.
    pub tally: Tally,
    /// Wall time of the match; none for a merge of parts (a part file holds
    /// no times, so that a part run twice writes the same file).
    pub(crate) elapsed: Option<Duration>,
    /// Why it stopped before every game was played, if it did.
    pub stopped_early: Option<String>,
}

/// The pairings of a match, in order.
pub(crate) fn pairings(engines: usize, gauntlet: bool) -> Vec<Pairing> {
    let mut v = Vec::new();
    for first in 0..engines {
        for second in first + 1..engines {
            if !gauntlet || first == 0 {
                v.push(Pairing { first, second });
            }
        }
    }
    v
}

/// Check the configuration and start every engine once (handshake and the
/// options the user named): the pairings and the games this run would play
/// (a part's only), or why it cannot start. `choro match --dry-run` stops
/// here.
pub(crate) fn check(cfg: &MatchConfig) -> Result<(Vec<Pairing>, Vec<GameJob>), String> {
    let n = cfg.engines.len();
    if n < 2 {
        return Err("a match needs at least two engines".into());
    }
    for (i, e) in cfg.engines.iter().enumerate() {
        if cfg.engines[..i].iter().any(|o| o.name == e.name) {
            return Err(format!("two engines are named '{}'", e.name));
        }
    }
    if cfg.games == 0 || cfg.games & 1 != 0 {
        return Err(format!(
            "--games must be even and positive (games are played in colour-swapped pairs), not {}",
            cfg.games
        ));
    }
    if cfg.settings.limits.is_empty() {
        return Err("give a limit: --tc, --movetime, --depth or --nodes".into());
    }
    let pairings = pairings(n, cfg.gauntlet);
    if cfg.sprt.is_some() && pairings.len() != 1 {
        return Err(format!(
            "--sprt needs a match of one pairing (two engines, or a gauntlet of two), not {}",
            pairings.len()
        ));
    }
    for spec in &cfg.engines {
        check_engine(spec, &cfg.settings)?;
    }

    let all = jobs(cfg, &pairings)?;
    let jobs: Vec<GameJob> = match cfg.part {
        Some(part) => {
            let pairs = all.last().map_or(0, |j| j.pair as usize);
            if part.n as usize > pairs {
                return Err(format!(
                    "--job {part}: the match has {pairs} game pairs, fewer than {} parts",
                    part.n
                ));
            }
            let range = part.range(pairs);
            all.into_iter()
                .filter(|j| range.contains(&(j.pair as usize - 1)))
                .collect()
        }
        None => all,
    };
    Ok((pairings, jobs))
}

/// Check the match (`check`), then play. `on_game` sees every game counted,
/// in the order of the schedule (game numbers), with the tally after it; an
/// error from it stops the match.
pub fn run(
    cfg: &MatchConfig,
    on_game: &mut dyn FnMut(&Played, &Tally) -> Result<(), String>,
) -> Result<MatchSummary, String> {
    let (pairings, jobs) = check(cfg)?;
    let mut tally = empty_tally(cfg, pairings, jobs.len() as u64);
    if cfg.part.is_some() {
        tally.sprt = None;
    }
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let mut stopped_early = None;
    let workers = cfg.concurrency.clamp(1, jobs.len().max(1));
    let jobs = &jobs;

    thread::scope(|scope| -> Result<(), String> {
        let (tx, rx) = mpsc::channel::<(usize, Played)>();
        // Every worker is joined (choro_engine::threads), at the end or
        // when a worker cannot start.
        let mut crew = Crew::new();
        for w in 0..workers {
            let tx = tx.clone();
            let (next, stop) = (&next, &stop);
            let spawned = thread::Builder::new()
                .name(format!("match-worker-{w}"))
                .spawn_scoped(scope, move || {
                    let mut slots: Vec<Slot> = cfg.engines.iter().cloned().map(Slot::new).collect();
                    while !stop.load(Ordering::SeqCst) {
                        let i = next.fetch_add(1, Ordering::SeqCst);
                        let Some(job) = jobs.get(i) else { break };
                        let played = referee::play(job.clone(), &mut slots, &cfg.settings);
                        if tx.send((i, played)).is_err() {
                            break;
                        }
                    }
                    for slot in &mut slots {
                        if let Some(e) = slot.engine.take() {
                            e.quit();
                        }
                    }
                });
            match spawned {
                Ok(h) => crew.push(h),
                Err(e) => {
                    stop.store(true, Ordering::SeqCst);
                    return Err(format!("cannot start a worker thread: {e}"));
                }
            }
        }
        drop(tx);
        // Games are counted in the order of the schedule, not of their
        // finishing: a game that finishes early waits here for the games
        // before it. So the tally, the records and the SPRT's stop are the
        // same whatever the concurrency, and the same as `choro merge`'s of
        // the parts: the match stops after the first complete pair whose
        // LLR crosses a bound, and the games after it (already started by
        // other workers) are not counted.
        let mut waiting: BTreeMap<usize, Played> = BTreeMap::new();
        let mut counted = 0;
        let mut closed = false;
        for (i, played) in rx {
            if closed {
                continue;
            }
            waiting.insert(i, played);
            while let Some(played) = waiting.remove(&counted) {
                counted += 1;
                tally.add(&played);
                if let Err(e) = on_game(&played, &tally) {
                    stop.store(true, Ordering::SeqCst);
                    stopped_early.get_or_insert(e);
                    closed = true;
                    break;
                }
                if let Some(SprtState {
                    decision: Some(d), ..
                }) = tally.sprt
                {
                    stop.store(true, Ordering::SeqCst);
                    stopped_early = Some(crate::stats::sprt_stop(d));
                    closed = true;
                    break;
                }
            }
            if closed {
                waiting.clear();
            }
        }
        crew.join();
        Ok(())
    })?;

    Ok(MatchSummary {
        elapsed: Some(tally.started.elapsed()),
        tally,
        stopped_early,
    })
}

/// Every game of a match in the order they are started: for each opening
/// k, a colour-swapped pair for every pairing. Game and pair numbers count
/// from 1; a part plays the pairs of its range, with the same numbers,
/// openings and seeds as the whole match.
pub(crate) fn jobs(cfg: &MatchConfig, pairings: &[Pairing]) -> Result<Vec<GameJob>, String> {
    let s = &cfg.settings;
    let start = Position::start(s.variant, s.columns, s.opening).map_err(|e| e.to_string())?;
    let start = start.with_race_holds(s.race_holds).unwrap_or(start);
    let pairs = cfg.games / 2;
    let mut jobs = Vec::new();
    let mut pair_no = 0;
    for k in 0..pairs {
        let opening = cfg
            .openings
            .opening(k, start, s.draw_plies)
            .map_err(|e| e.to_string())?;
        for (pi, p) in pairings.iter().enumerate() {
            pair_no += 1;
            for engines in [[p.first, p.second], [p.second, p.first]] {
                jobs.push(GameJob {
                    number: jobs.len() as u64 + 1,
                    pair: pair_no,
                    pairing: pi,
                    engines,
                    opening: opening.clone(),
                });
            }
        }
    }
    Ok(jobs)
}

/// A tally of no games yet.
pub(crate) fn empty_tally(cfg: &MatchConfig, pairings: Vec<Pairing>, planned: u64) -> Tally {
    Tally {
        names: cfg.engines.iter().map(|e| e.name.clone()).collect(),
        per_pairing: vec![PairingTally::default(); pairings.len()],
        pairings,
        planned,
        played: 0,
        plies: 0,
        failures: vec![BTreeMap::new(); cfg.engines.len()],
        sprt: cfg.sprt.map(|sprt| SprtState {
            sprt,
            llr: 0.0,
            decision: None,
        }),
        started: Instant::now(),
    }
}

/// Start an engine once: it must complete its handshake, list every
/// option the user set for it and accept the values (a misspelt option or
/// value would otherwise be silently ignored for the whole match).
fn check_engine(spec: &EngineSpec, s: &Settings) -> Result<(), String> {
    let mut e = Engine::start(spec, s.start_timeout)
        .map_err(|f| format!("engine '{}' ({}): {f}", spec.name, spec.cmd))?;
    for (name, _) in &spec.options {
        if !e.has_option(name) {
            return Err(format!(
                "engine '{}' does not list the option '{name}' (it lists: {})",
                spec.name,
                e.listed.join(", ")
            ));
        }
    }
    let refused = referee::configure(&mut e, spec, s)
        .and_then(|()| e.sync(s.start_timeout))
        .map_err(|f| format!("engine '{}': {f}", spec.name))?;
    if !refused.is_empty() {
        return Err(format!(
            "engine '{}' refused its settings: {}",
            spec.name,
            refused.join(" | ")
        ));
    }
    e.quit();
    Ok(())
}
