//! The color arithmetic of Trino's ColorFunctions, in single precision as Java computes it:
//! java.awt.Color's RGBtoHSB / HSBtoRGB (interpolation runs in HSB space), the ANSI 256-color
//! index of a color, and the colors' text on the wire (ColorType.getObjectValue).

/// The system colors, in ANSI index order (ColorFunctions.SystemColor). A system color is
/// stored as -(index + 1); an RGB color as the non-negative `0xRRGGBB`.
pub const SYSTEM_COLORS: [&str; 8] = [
    "black", "red", "green", "yellow", "blue", "magenta", "cyan", "white",
];

fn channels(rgb: i64) -> (i32, i32, i32) {
    (
        ((rgb >> 16) & 0xff) as i32,
        ((rgb >> 8) & 0xff) as i32,
        (rgb & 0xff) as i32,
    )
}

/// java.awt.Color.RGBtoHSB.
fn rgb_to_hsb(r: i32, g: i32, b: i32) -> [f32; 3] {
    let max = r.max(g).max(b);
    let min = r.min(g).min(b);
    let brightness = max as f32 / 255.0;
    let saturation = if max != 0 {
        (max - min) as f32 / max as f32
    } else {
        0.0
    };
    let hue = if saturation == 0.0 {
        0.0
    } else {
        let spread = (max - min) as f32;
        let (rc, gc, bc) = (
            (max - r) as f32 / spread,
            (max - g) as f32 / spread,
            (max - b) as f32 / spread,
        );
        let sector = if r == max {
            bc - gc
        } else if g == max {
            2.0 + rc - bc
        } else {
            4.0 + gc - rc
        };
        let hue = sector / 6.0;
        if hue < 0.0 { hue + 1.0 } else { hue }
    };
    [hue, saturation, brightness]
}

/// java.awt.Color.HSBtoRGB, without the alpha byte.
fn hsb_to_rgb(hue: f32, saturation: f32, brightness: f32) -> i64 {
    let level = |x: f32| (x * 255.0 + 0.5) as i32;
    let (r, g, b) = if saturation == 0.0 {
        let v = level(brightness);
        (v, v, v)
    } else {
        let h = (hue - hue.floor()) * 6.0;
        let f = h - h.floor();
        let p = brightness * (1.0 - saturation);
        let q = brightness * (1.0 - saturation * f);
        let t = brightness * (1.0 - saturation * (1.0 - f));
        let v = brightness;
        // `(int) h`: NaN is 0, as in Java; 6 (a rounding at the top) matches no case.
        match h as i32 {
            0 => (level(v), level(t), level(p)),
            1 => (level(q), level(v), level(p)),
            2 => (level(p), level(v), level(t)),
            3 => (level(p), level(q), level(v)),
            4 => (level(t), level(p), level(v)),
            5 => (level(v), level(p), level(q)),
            _ => (0, 0, 0),
        }
    };
    let packed = r.wrapping_shl(16) | g.wrapping_shl(8) | b;
    i64::from(packed & 0xff_ffff)
}

/// ColorFunctions.interpolate: the color `fraction` of the way from `low` to `high` in HSB
/// space. Both must be RGB colors ("color is not a valid rgb value", ColorFunctions.getRed).
pub fn interpolate(fraction: f32, low: i64, high: i64) -> Result<i64, String> {
    if low < 0 || high < 0 {
        return Err("color is not a valid rgb value".into());
    }
    let (lr, lg, lb) = channels(low);
    let (hr, hg, hb) = channels(high);
    let [lh, ls, lv] = rgb_to_hsb(lr, lg, lb);
    let [hh, hs, hv] = rgb_to_hsb(hr, hg, hb);
    Ok(hsb_to_rgb(
        fraction * (hh - lh) + lh,
        fraction * (hs - ls) + ls,
        fraction * (hv - lv) + lv,
    ))
}

/// The ANSI 256-color index (`ESC[38;5;<index>m`): a system color's own index, an RGB color's
/// cell in the 6×6×6 cube.
pub fn ansi_index(color: i64) -> i64 {
    if color < 0 {
        return -color - 1;
    }
    let (r, g, b) = channels(color);
    let level = |c: i32| i64::from(c * 6 / 256);
    16 + level(r) * 36 + level(g) * 6 + level(b)
}

/// How the client protocol shows a color: a system color's name, else `#rrggbb`.
pub fn protocol_text(color: i64) -> Option<String> {
    if color < 0 {
        let index = usize::try_from(-(color + 1)).ok()?;
        return SYSTEM_COLORS.get(index).map(|name| name.to_string());
    }
    let (r, g, b) = channels(color);
    Some(format!("#{r:02x}{g:02x}{b:02x}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interpolates_in_hsb_as_java_does() {
        // docs functions/color and Trino 476's answers: color(fraction, low, high).
        let red = 0xff0000;
        let green = 0x00ff00;
        let blue = 0x0000ff;
        assert_eq!(interpolate(0.0, red, blue), Ok(red));
        assert_eq!(interpolate(1.0, red, blue), Ok(blue));
        assert_eq!(interpolate(0.25, 0, 0xffffff), Ok(0x404040));
        assert_eq!(interpolate(0.5, red, green), Ok(0xffff00));
        assert_eq!(
            interpolate(0.5, -2, blue),
            Err("color is not a valid rgb value".into())
        );
    }

    #[test]
    fn ansi_indexes_and_protocol_text() {
        // TestColorFunctions: rgb colors land in the 6x6x6 cube, system colors keep theirs.
        assert_eq!(ansi_index(0xff0000), 196);
        assert_eq!(ansi_index(0xaabbcc), 152);
        assert_eq!(ansi_index(-3), 2);
        assert_eq!(protocol_text(0x0080ff).as_deref(), Some("#0080ff"));
        assert_eq!(protocol_text(-7).as_deref(), Some("cyan"));
        assert_eq!(protocol_text(-9), None);
    }
}
