//! The small formats models write in their answers, one nom parser module
//! each: option letters ([`option`]), T/F label lists ([`truth`]) and
//! LogicGraph step answers ([`steps`]). Each parser is total (any text gives
//! a value or `None`, never a panic) and reads back what its printer writes.

pub mod option;
pub mod read;
pub mod steps;
pub mod truth;
