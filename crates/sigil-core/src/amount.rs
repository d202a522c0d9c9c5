//! On-chain amounts: hex quantities of any size to exact decimal strings, unit scaling and the
//! display rules (token quantity floored to 3 decimals, fiat to 2).

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("'{0}' is not a hex quantity")]
pub struct BadQuantity(pub String);

/// `0x1bc16d674ec80000` -> `2000000000000000000`; any length (256-bit words and beyond).
pub fn hex_to_decimal(hex: &str) -> Result<String, BadQuantity> {
    let digits = hex.strip_prefix("0x").or_else(|| hex.strip_prefix("0X")).unwrap_or(hex);
    if digits.is_empty() || digits.len() > 128 || !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(BadQuantity(hex.to_owned()));
    }
    // Base 10^9 limbs, least significant first.
    let mut limbs: Vec<u64> = vec![0];
    for c in digits.chars() {
        let mut carry = u64::from(c.to_digit(16).expect("checked hex digit"));
        for limb in limbs.iter_mut() {
            let v = *limb * 16 + carry;
            *limb = v % 1_000_000_000;
            carry = v / 1_000_000_000;
        }
        if carry > 0 {
            limbs.push(carry);
        }
    }
    let mut out = limbs.last().expect("at least one limb").to_string();
    for limb in limbs.iter().rev().skip(1) {
        out.push_str(&format!("{limb:09}"));
    }
    Ok(out)
}

/// Places the decimal point: (`1500000`, 6) -> `1.5`; (`5`, 3) -> `0.005`; trailing zeros trimmed.
pub fn format_units(integer: &str, decimals: u8) -> String {
    let d = decimals as usize;
    let padded = format!("{integer:0>width$}", width = d + 1);
    let (whole, frac) = padded.split_at(padded.len() - d);
    let whole = whole.trim_start_matches('0');
    let whole = if whole.is_empty() { "0" } else { whole };
    let frac = frac.trim_end_matches('0');
    if frac.is_empty() {
        whole.to_owned()
    } else {
        format!("{whole}.{frac}")
    }
}

/// Floors a decimal string to `places` decimals without going through floating point.
pub fn floor_decimal(value: &str, places: usize) -> String {
    match value.split_once('.') {
        None => value.to_owned(),
        Some((whole, frac)) => {
            let kept = frac.get(..places.min(frac.len())).unwrap_or("").trim_end_matches('0');
            if kept.is_empty() {
                whole.to_owned()
            } else {
                format!("{whole}.{kept}")
            }
        }
    }
}

/// True for a zero quantity (`0x0`, `0x`, `0x000`).
pub fn is_zero_hex(hex: &str) -> bool {
    hex.trim_start_matches("0x").bytes().all(|b| b == b'0')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_to_decimal_any_size() {
        assert_eq!(hex_to_decimal("0x0").unwrap(), "0");
        assert_eq!(hex_to_decimal("0x21e19e0c9bab2400000").unwrap(), "10000000000000000000000");
        assert_eq!(
            hex_to_decimal("0xffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff").unwrap(),
            "115792089237316195423570985008687907853269984665640564039457584007913129639935"
        );
        assert!(hex_to_decimal("0xzz").is_err());
        assert!(hex_to_decimal("0x").is_err());
    }

    #[test]
    fn units_and_display() {
        assert_eq!(format_units("10000000000000000000000", 18), "10000");
        assert_eq!(format_units("1500000", 6), "1.5");
        assert_eq!(format_units("5", 3), "0.005");
        assert_eq!(format_units("0", 18), "0");
        assert_eq!(format_units("123", 0), "123");
        assert_eq!(floor_decimal("1.23999", 3), "1.239");
        assert_eq!(floor_decimal("1.0001", 3), "1");
        assert_eq!(floor_decimal("12", 2), "12");
        assert!(is_zero_hex("0x000") && is_zero_hex("0x") && !is_zero_hex("0x10"));
    }
}
