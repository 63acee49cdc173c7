//! The QueryMesh engine at library level: Trino SQL through `Engine::prepare` and
//! `Prepared::run` on `Engine::connect`, against tpch.tiny and the developer's catalogs.

mod clause_reading;
mod developer_sources;
mod explain;
mod explain_beyond_trinos_shapes;
mod exploration;
mod function_refusals_quoting_arguments;
mod interruption_and_threads;
mod overlapping_cast_types;
mod refusals;
mod text_with_nul_characters;
mod tpch_generated;
mod tpch_queries;
mod tpch_tables;
mod types_and_values;
