//! How the benches compute and print their figures: the median of samples, milliseconds, and one report line
//! with its target. Included by each bench with `#[path]`, as the scripted server is.

use std::time::Duration;

pub fn median(values: &[Duration]) -> Duration {
    let mut sorted = values.to_vec();
    sorted.sort_unstable();
    sorted[sorted.len() / 2]
}

pub fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// One line: the figure with `decimals` places, and its target when it has one (`NAN` for none).
pub fn report(what: &str, value: f64, target: f64, decimals: usize) {
    if target.is_nan() {
        println!("  {what:<62} {value:>10.decimals$}");
    } else {
        let verdict = if value <= target { "ok" } else { "OVER TARGET" };
        println!("  {what:<62} {value:>10.decimals$}   target ≤ {target:<8} {verdict}");
    }
}
