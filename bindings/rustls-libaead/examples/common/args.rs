//! The command-line options tls-client and tls-server share, and the rustls configuration they
//! select: provider, cipher suite, protocol versions, fragment size; and the command line of both
//! servers (tls-server, quic-echo-server).
use rustls::crypto::CryptoProvider;
use rustls::{SupportedCipherSuite, SupportedProtocolVersion};
use std::sync::Arc;

/// Options common to both programs.
pub struct Common {
    pub suite: Option<String>,
    pub version: Option<&'static SupportedProtocolVersion>,
    /// `libaead` (default) or `ring` (rustls's *ring* provider unchanged, as the peer to compare with).
    pub provider: String,
    /// `ClientConfig` / `ServerConfig::max_fragment_size` (32..=16389): small values force tiny records.
    pub max_fragment: Option<usize>,
}

impl Default for Common {
    fn default() -> Self {
        Common {
            suite: None,
            version: None,
            provider: "libaead".into(),
            max_fragment: None,
        }
    }
}

impl Common {
    /// Consumes `flag` (and its value from `it`) if it is a common option; Ok(false) if it is not.
    pub fn parse(
        &mut self,
        flag: &str,
        it: &mut impl Iterator<Item = String>,
    ) -> Result<bool, String> {
        match flag {
            "--suite" => self.suite = Some(value(flag, it)?),
            "--tls12" => self.version = Some(&rustls::version::TLS12),
            "--tls13" => self.version = Some(&rustls::version::TLS13),
            "--provider" => self.provider = value(flag, it)?,
            "--max-fragment" => {
                let v = value(flag, it)?;
                self.max_fragment = Some(
                    v.parse()
                        .map_err(|_| format!("--max-fragment: not a number: {v}"))?,
                );
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// The provider restricted to the chosen suite, and the protocol versions to enable: the
    /// chosen one, else the suite's own, else both.
    pub fn provider(
        &self,
    ) -> Result<(Arc<CryptoProvider>, Vec<&'static SupportedProtocolVersion>), String> {
        let (mut provider, lookup): (CryptoProvider, fn(&str) -> Option<SupportedCipherSuite>) =
            match self.provider.as_str() {
                "libaead" => (rustls_libaead::provider(), rustls_libaead::suite_by_name),
                "ring" => (rustls::crypto::ring::default_provider(), ring_suite_by_name),
                other => {
                    return Err(format!(
                        "--provider: unknown provider {other} (libaead, ring)"
                    ))
                }
            };
        // What may be selected: the provider's suites and, from libaead, the opt-in ones too
        // (TLS13_AES_128_CCM_SHA256), which no provider offers unless asked.
        let mut servable = provider.cipher_suites.clone();
        if self.provider == "libaead" {
            servable.extend(rustls_libaead::opt_in_cipher_suites());
        }
        let mut versions = match self.version {
            Some(v) => vec![v],
            None => vec![&rustls::version::TLS13, &rustls::version::TLS12],
        };
        if let Some(name) = &self.suite {
            let suite =
                lookup(name).ok_or_else(|| format!("--suite: unknown cipher suite {name}"))?;
            if !servable.contains(&suite) {
                return Err(format!(
                    "--suite: {name} is not available from the loaded OpenSSL providers"
                ));
            }
            let own = suite.version();
            if self.version.is_some_and(|v| v != own) {
                return Err(format!("--suite: {name} is a {:?} suite", own.version));
            }
            versions = vec![own];
            provider.cipher_suites = vec![suite];
        }
        Ok((Arc::new(provider), versions))
    }
}

fn ring_suite_by_name(name: &str) -> Option<SupportedCipherSuite> {
    rustls::crypto::ring::ALL_CIPHER_SUITES
        .iter()
        .copied()
        .find(|s| s.suite().as_str() == Some(name))
}

/// The arguments after the program's name, as [`server`] hands them to a server's own options.
pub type Args = std::iter::Skip<std::env::Args>;

/// A server's command line: `--listen PORT --cert CERT.pem --key KEY.pem`, which every server
/// requires, and the flags `own` takes (consuming any value from the arguments; Ok(false) for one
/// it does not know). Returns the port, certificate path and key path; `usage` as the error when
/// one of them is missing.
pub fn server(
    usage: &str,
    mut own: impl FnMut(&str, &mut Args) -> Result<bool, String>,
) -> Result<(u16, String, String), String> {
    let (mut port, mut cert, mut key) = (None, None, None);
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        match flag.as_str() {
            "--listen" => port = Some(value(&flag, &mut it)?),
            "--cert" => cert = Some(value(&flag, &mut it)?),
            "--key" => key = Some(value(&flag, &mut it)?),
            f if own(f, &mut it)? => {}
            f => return Err(format!("unknown option {f}\n{usage}")),
        }
    }
    let (Some(port), Some(cert), Some(key)) = (port, cert, key) else {
        return Err(usage.into());
    };
    let port = port
        .parse()
        .map_err(|_| format!("--listen: not a port: {port}"))?;
    Ok((port, cert, key))
}

/// The value after `flag`.
pub fn value(flag: &str, it: &mut impl Iterator<Item = String>) -> Result<String, String> {
    it.next().ok_or_else(|| format!("{flag} needs a value"))
}
