//! The colour scales of the heatmaps: the survey's disagreement (white to red) and the
//! conformance report's agreement (viridis).

/// A heatmap colour for a disagreement share: white at 0, deep red at 50 % and above.
pub fn disagreement(share: f64) -> String {
    let t = (share * 2.0).clamp(0.0, 1.0);
    let light = 100.0 - 55.0 * t;
    format!("hsl(0,80%,{light:.0}%)")
}

/// A colour on a viridis-like sequential scale (`t` in 0..=1, 1 darkest), with the ink
/// that reads on it.
pub fn viridis(t: f64) -> (String, &'static str) {
    // Viridis, reversed: light yellow for low agreement, dark purple for full agreement.
    const STOPS: [(f64, f64, f64); 6] = [
        (253.0, 231.0, 37.0),
        (122.0, 209.0, 81.0),
        (34.0, 168.0, 132.0),
        (42.0, 120.0, 142.0),
        (65.0, 68.0, 135.0),
        (68.0, 1.0, 84.0),
    ];
    let t = if t.is_finite() {
        t.clamp(0.0, 1.0)
    } else {
        0.0
    };
    let at = t * (STOPS.len() - 1) as f64;
    let i = (at.floor() as usize).min(STOPS.len() - 2);
    let f = at - i as f64;
    let mix = |a: f64, b: f64| (a + (b - a) * f).round() as u8;
    let (r, g, b) = (
        mix(STOPS[i].0, STOPS[i + 1].0),
        mix(STOPS[i].1, STOPS[i + 1].1),
        mix(STOPS[i].2, STOPS[i + 1].2),
    );
    let ink = if t > 0.45 { "#ffffff" } else { "#111111" };
    (format!("#{r:02x}{g:02x}{b:02x}"), ink)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scales_run_from_light_to_dark() {
        assert_eq!(disagreement(0.0), "hsl(0,80%,100%)");
        assert_eq!(disagreement(0.3), "hsl(0,80%,67%)");
        assert_eq!(disagreement(0.9), "hsl(0,80%,45%)");
        assert_eq!(viridis(0.0), ("#fde725".to_string(), "#111111"));
        assert_eq!(viridis(1.0), ("#440154".to_string(), "#ffffff"));
        assert_eq!(viridis(f64::NAN), viridis(0.0));
    }
}
