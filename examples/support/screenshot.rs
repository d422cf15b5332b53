//! Saving one screenshot of the primary window and then exiting, shared by the lab and
//! RTS examples' `--screenshot PATH`.

use std::path::PathBuf;

use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, ScreenshotCaptured, save_to_disk};

/// Asks for a screenshot of the primary window, saved to `path` (its folder is created),
/// and exits the app once it is captured.
pub fn save_screenshot_and_exit(commands: &mut Commands, path: PathBuf) {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty())
        && let Err(e) = std::fs::create_dir_all(dir)
    {
        error!("cannot create {}: {e}", dir.display());
    }
    commands
        .spawn(Screenshot::primary_window())
        .observe(save_to_disk(path))
        .observe(
            |_: On<ScreenshotCaptured>, mut exit: MessageWriter<AppExit>| {
                exit.write(AppExit::Success);
            },
        );
}
