//! The macro that declares settings on the fields that hold them.

/// Declares a settings struct. A field written `pub name: Type = decl,` is a setting: `decl` is a
/// [`Decl`](super::Decl) built by [`setting`](super::setting) (key, kind, environment names, flag, project rule,
/// example) and the field's doc comment is its documentation. Other fields are plain state, `Default::default()`
/// to begin with.
///
/// `in config.tools` says where the struct sits in [`Config`](crate::config::Config) (`config` is the root).
/// Generates the struct, `declared()` (every field at its declared default), `SETTINGS` (the rows that read, show
/// and document each setting) and, for a struct below the root, `Default` (= `declared()`). A new settings struct
/// is listed once in [`all`](super::all); a new setting in an existing struct needs nothing else.
macro_rules! declare_settings {
    (
        $(#[$meta:meta])*
        pub struct $name:ident in $c:ident { $($body:tt)* }
    ) => {
        $crate::config::settings::declare_settings!(@struct [$(#[$meta])*] $name $c [] { $($body)* });
    };
    (
        $(#[$meta:meta])*
        pub struct $name:ident in $c:ident $(. $path:ident)+ { $($body:tt)* }
    ) => {
        $crate::config::settings::declare_settings!(@struct [$(#[$meta])*] $name $c [$(. $path)+] { $($body)* });

        impl Default for $name {
            fn default() -> Self {
                Self::declared()
            }
        }
    };
    (
        @struct [$($meta:tt)*] $name:ident $c:ident [$($path:tt)*] {
            $(
                $(#[doc = $doc:literal])*
                pub $field:ident : $ty:ty $(= $decl:expr)?,
            )*
        }
    ) => {
        $($meta)*
        pub struct $name {
            $( $(#[doc = $doc])* pub $field: $ty, )*
        }

        impl $name {
            /// Every field at its declared default.
            pub(crate) fn declared() -> Self {
                $name {
                    $( $field: $crate::config::settings::declare_settings!(@default $($decl)?), )*
                }
            }

            /// The settings this struct holds, in declaration order.
            pub const SETTINGS: &'static [&'static dyn $crate::config::settings::Row] =
                $crate::config::settings::declare_settings!(
                    @rows $c [$($path)*] []; $( [$($doc)*] $field $(= $decl)? ; )*
                );
        }
    };
    (@default) => {
        Default::default()
    };
    (@default $decl:expr) => {
        $crate::config::settings::Kind::default_value(&$decl.kind)
    };
    (@rows $c:ident [$($path:tt)*] [$($rows:tt)*]; ) => {
        &[$($rows)*]
    };
    (@rows $c:ident [$($path:tt)*] [$($rows:tt)*]; [$($doc:literal)*] $field:ident = $decl:expr ; $($rest:tt)*) => {
        $crate::config::settings::declare_settings!(@rows $c [$($path)*] [
            $($rows)*
            &$crate::config::settings::Slot {
                decl: $decl.doc(concat!($($doc, "\n"),*)),
                get: |$c| &$c $($path)* .$field,
                get_mut: |$c| &mut $c $($path)* .$field,
            },
        ]; $($rest)*)
    };
    (@rows $c:ident [$($path:tt)*] [$($rows:tt)*]; [$($doc:literal)*] $field:ident ; $($rest:tt)*) => {
        $crate::config::settings::declare_settings!(@rows $c [$($path)*] [$($rows)*]; $($rest)*)
    };
}

pub(crate) use declare_settings;
