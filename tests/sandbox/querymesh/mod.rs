//! The QueryMesh stand-in: its server over HTTP (the Trino protocol), its engine at library
//! level (Trino SQL on SQLite), Trino's semantics construct by construct, Trino's finer points
//! over the protocol, statements past the limits, and the memory budgets.

mod engine;
mod fidelity;
mod memory_budgets;
mod semantics;
mod server;
mod statement_limits;
