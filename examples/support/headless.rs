//! What the tilemap examples (`hexagonal`, `isometric`) share: their command line, the
//! app with or without a window, and the headless tally of units standing where their
//! footprint may not, of units overlapping and of arrivals per order.
//!
//! The command line: `--headless FRAMES` runs without a window for `FRAMES` frames of
//! 16 ms and prints the tally; `--screenshot PATH` saves a screenshot at frame 240 and
//! exits; `--step` moves the units with `GridStepper` instead of `Steering`; one flag of
//! the example's own picks its other map layout.

use std::fmt::Debug;
use std::time::Duration;

use bevy::app::ScheduleRunnerPlugin;
use bevy::diagnostic::FrameCount;
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_ecs_tilemap::prelude::*;
use bevy_tilepath::crowd::OVERLAP_TOLERANCE;
use bevy_tilepath::prelude::*;

#[path = "screenshot.rs"]
mod screenshot;

/// The settings of a run, from the command line; `M` is the map layout the example
/// draws.
#[derive(Resource, Clone, Debug)]
pub struct Options<M: Send + Sync + 'static> {
    /// The map layout.
    pub map: M,
    /// Frames to run without a window, or `None` for a window.
    pub headless: Option<u32>,
    /// Where to save a screenshot at frame 240.
    pub screenshot: Option<String>,
    /// Units step from tile to tile ([`GridStepper`]) instead of steering.
    pub step: bool,
}

impl<M: Send + Sync + 'static> Options<M> {
    /// Reads the command line: `flag` picks `other` over the default layout `map`.
    /// Unknown arguments are reported and ignored.
    pub fn from_args(map: M, flag: &str, other: M) -> Self {
        let mut options = Options {
            map,
            headless: None,
            screenshot: None,
            step: false,
        };
        let mut other = Some(other);
        let mut args = std::env::args().skip(1);
        while let Some(arg) = args.next() {
            match arg.as_str() {
                "--headless" => options.headless = args.next().and_then(|f| f.parse().ok()),
                "--screenshot" => options.screenshot = args.next(),
                "--step" => options.step = true,
                f if f == flag => options.map = other.take().unwrap_or(options.map),
                unknown => eprintln!("unknown argument {unknown}"),
            }
        }
        options
    }
}

/// Gives `unit` its way of moving at `speed` world units a second over tiles `tile`
/// world units apart: [`Steering`], or with `--step` a [`GridStepper`] taking one tile
/// in as many 16 ms frames as that speed needs.
pub fn add_mover<M: Send + Sync + 'static>(
    unit: &mut EntityCommands,
    options: &Options<M>,
    speed: f32,
    tile: f32,
) {
    if options.step {
        let frames = (tile / speed / 0.016).round().max(1.0) as u32;
        unit.insert(GridStepper {
            ticks_per_step: frames,
            ..default()
        });
    } else {
        unit.insert(Steering::with_speed(speed));
    }
}

/// A unit the tally checks: its movement profile's name and its diameter.
pub trait Walker: Component {
    /// The name of the unit's movement profile.
    fn profile(&self) -> &'static str;
    /// The unit's diameter in tiles.
    fn diameter(&self) -> u32;
}

/// What the headless run counts.
#[derive(Resource, Default)]
pub struct Tally {
    /// Unit-frames spent where the unit's footprint may not stand.
    in_walls: usize,
    /// Pair-frames of two units overlapping by more than the crowd's tolerance.
    overlaps: usize,
    /// The worst overlap seen, in tiles of the steering plane.
    worst_overlap: f32,
    /// Orders given so far.
    order: usize,
    /// Units that had arrived when each next order was given.
    arrived: Vec<usize>,
    /// Units arrived now.
    arrived_now: usize,
}

impl Tally {
    /// The number of the order due at `elapsed` seconds, one every `every` seconds from
    /// 0 (numbered from 1), when it was not given yet; records the arrivals of the
    /// order before.
    pub fn order_due(&mut self, elapsed: f32, every: f32) -> Option<usize> {
        let due = (elapsed / every) as usize + 1;
        if self.order >= due {
            return None;
        }
        if self.order > 0 {
            self.arrived.push(self.arrived_now);
        }
        self.order = due;
        Some(due)
    }
}

/// An app for `options`: without a window (minimal plugins, 16 ms frames) for a
/// headless run, otherwise in a window titled `title` with the tilemap and the
/// plugin's debug drawing, saving a screenshot when asked. Adds the tally.
pub fn app<M: Clone + Debug + Send + Sync + 'static>(options: &Options<M>, title: &str) -> App {
    let mut app = App::new();
    if options.headless.is_some() {
        app.add_plugins(MinimalPlugins.set(ScheduleRunnerPlugin::run_loop(Duration::ZERO)))
            .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_millis(
                16,
            )));
    } else {
        app.add_plugins(DefaultPlugins.set(WindowPlugin {
            primary_window: Some(Window {
                resolution: (1280, 720).into(),
                title: title.into(),
                ..default()
            }),
            ..default()
        }))
        .add_plugins((TilemapPlugin, TilepathDebugPlugin))
        .add_systems(Update, screenshot::<M>);
    }
    app.insert_resource(options.clone())
        .init_resource::<Tally>();
    app
}

/// Counts units `U` standing where their footprint may not and pairs of them overlapping
/// by more than [`OVERLAP_TOLERANCE`] (both must stay 0), and arrivals; ends a headless
/// run with its summary, with an error when a unit stood in a wall or two overlapped.
pub fn check_units<M: Debug + Send + Sync + 'static, U: Walker>(
    grid: Option<Res<NavGrid>>,
    profiles: Res<MovementProfiles>,
    options: Res<Options<M>>,
    frame: Res<FrameCount>,
    mut tally: ResMut<Tally>,
    units: Query<(&Transform, &U, Has<Arrived>)>,
    mut exit: MessageWriter<AppExit>,
) {
    let Some(grid) = grid else { return };
    let mut arrived = 0;
    let tile = grid.plane_tile_size().x;
    let shape = grid.layout().shape();
    let discs: Vec<(Vec2, f32)> = units
        .iter()
        .map(|(t, u, _)| {
            let at = grid.world_to_plane(t.translation.truncate()) / tile;
            (at, shape.body_radius(u.diameter()) as f32)
        })
        .collect();
    for (i, &(a, ra)) in discs.iter().enumerate() {
        for &(b, rb) in &discs[i + 1..] {
            let overlap = ra + rb - a.distance(b);
            tally.worst_overlap = tally.worst_overlap.max(overlap);
            tally.overlaps += usize::from(overlap > OVERLAP_TOLERANCE);
        }
    }
    for (transform, unit, has_arrived) in &units {
        let profile = profiles.id(unit.profile()).unwrap_or_default();
        let at = transform.translation.truncate();
        let cell = grid.agent_cell(at, unit.diameter());
        if cell.is_none_or(|c| grid.is_blocked_for(c, unit.diameter(), profile)) {
            tally.in_walls += 1;
        }
        arrived += usize::from(has_arrived);
    }
    tally.arrived_now = arrived;
    if let Some(frames) = options.headless
        && frame.0 >= frames
    {
        println!(
            "{:?}{}: {} frames, {} units, {} orders, units arrived per order {:?}, \
             {} unit-frames in walls, {} overlapping pair-frames (worst {:.3} tiles)",
            options.map,
            if options.step { " stepping" } else { "" },
            frame.0,
            units.iter().len(),
            tally.order,
            tally.arrived,
            tally.in_walls,
            tally.overlaps,
            tally.worst_overlap
        );
        exit.write(if tally.in_walls == 0 && tally.overlaps == 0 {
            AppExit::Success
        } else {
            AppExit::error()
        });
    }
}

/// With `--screenshot PATH`, saves a screenshot at frame 240 and exits.
fn screenshot<M: Send + Sync + 'static>(
    mut commands: Commands,
    frame: Res<FrameCount>,
    options: Res<Options<M>>,
) {
    if frame.0 == 240
        && let Some(path) = &options.screenshot
    {
        screenshot::save_screenshot_and_exit(&mut commands, path.into());
    }
}
