//! `choro-gui`: serve the board on the loopback address and print its URL.

use clap::Parser;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::process::ExitCode;

/// A local web board for choro: open the printed URL in a browser.
#[derive(Parser)]
#[command(version)]
struct Args {
    /// Port to listen on (0 picks a free one).
    #[arg(long, default_value_t = 7878)]
    port: u16,
    /// Address to listen on. Only the loopback address is safe: the board
    /// has no login, and anyone who reaches it drives the engine.
    #[arg(long, default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST))]
    host: IpAddr,
    /// A host name besides localhost and the addresses by which the board
    /// may be reached (repeatable): a request naming any other is refused,
    /// so that no other site's page can reach the board (README.md).
    #[arg(long = "allow-host", value_name = "NAME")]
    allow_host: Vec<String>,
    /// The engine binary (default: `choro` beside this program; without
    /// one, this program itself, which speaks the protocol with `--protocol`).
    #[arg(long)]
    engine: Option<PathBuf>,
    /// Speak the protocol on stdin/stdout, as `choro` does with no arguments
    /// (the engine subprocess when no `choro` binary is at hand).
    #[arg(long, hide = true)]
    protocol: bool,
}

#[tokio::main]
async fn main() -> ExitCode {
    let args = Args::parse();
    if args.protocol {
        return protocol();
    }
    let (engine, engine_args) = match args.engine.or_else(choro_gui::engine::default_engine_path) {
        Some(p) => (p, vec![]),
        None => match std::env::current_exe() {
            Ok(me) => (me, vec!["--protocol".to_string()]),
            Err(e) => {
                eprintln!("choro-gui: no engine: {e}; pass --engine PATH");
                return ExitCode::from(2);
            }
        },
    };
    let app = choro_gui::App::new(engine.clone(), &engine_args);
    let access = choro_gui::access::Access::new(args.host, &args.allow_host);
    let addr = SocketAddr::new(args.host, args.port);
    let (addr, serve) = match choro_gui::bind_with(addr, app, access).await {
        Ok(x) => x,
        Err(e) => {
            eprintln!(
                "choro-gui: cannot listen on {}:{}: {e}",
                args.host, args.port
            );
            return ExitCode::from(2);
        }
    };
    println!(
        "choro-gui: engine {} {}",
        engine.display(),
        engine_args.join(" ")
    );
    println!("choro-gui: open http://{addr}/");
    if let Err(e) = serve.await {
        eprintln!("choro-gui: {e}");
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}

/// The protocol server of the `choro` crate on stdin/stdout.
fn protocol() -> ExitCode {
    let mut server = match choro::Server::new(std::io::stdout()) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("choro-gui: {e}");
            return ExitCode::FAILURE;
        }
    };
    choro::run(std::io::stdin().lock(), &mut server);
    ExitCode::SUCCESS
}
