// The slice through the player, ray-traced through the room's 4D grid.
//
// anabasis.picture.render.fragment_preamble prepends: #version, the cell codes (CELL_*,
// from anabasis.engine.cells), the texel's layout (TEXEL_*, CLEAR_SHIFT, from
// anabasis.picture.clearance), the constants shared with Python as const lines (NEVER,
// HAIR, SNAP, FAR, FOG_START, FEET, FACE_MISS, FACE_INSIDE, MAX_STEPS: render.SHADER_CONSTANTS),
// and the variant's #defines (each variant is its own program: a branch on a uniform inside
// the loop would cost both sides on llvmpipe):
//   GHOST  what holds the player from out of the slice, drawn faintly (w or z hidden)
//   FADE   a second slice traced and mixed in (a step along the hidden axis)
//   DEBUG  output (cell index, face code, t, 1) for the CPU reference test
//   PLAIN  the bench's baseline: the bare DDA with flat shading
//   WRAP   w wraps
//   MOVING_CRATE  a crate drawn off its cell (u_crate_lo), for a push or a fall
//   MARKS  where a step from a ramp lands, and where a push moves a crate beside the pawn
//          (u_mark_lo), drawn at rest
//   HOLES  a room whose bottom layer has an empty cell, with z up: a shaft open to below the
//          room has dark, crossed sides, and where a ray leaves the room through its bottom
//          the cell is crossed (pose.opens_below)
//   SKIP   empty-space skipping (SKIP_STEP), in open rooms only: a jump costs about 2.3 plain
//          steps, so dense rooms are quicker walked a cell at a time
//   EDIT   the editor: the slice passes through its cursor, not the player, so no pawn is
//          drawn there; players are cells (CELL_PLAYER) in the texture instead
//
// Slice coordinates are (across, depth, up); u_basis's columns are the 4D
// directions of (across, depth, up, hidden).  Cells are unit cubes
// [c, c+1) in 4D; the room's grid is packed into a 3D texture at
// (x, y, z + Z*w).

uniform usampler3D u_cells;
uniform ivec4 u_size;        // X, Y, Z, W
uniform vec4 u_occupied_lo;  // the least box holding every cell that is not empty (x, y, z, w)
uniform vec4 u_occupied_hi;
uniform mat4 u_basis;
uniform vec4 u_ro;           // the eye in 4D: the slice's origin (the player's centre, hidden
                             // coordinate centred) plus u_basis * u_eye
uniform vec4 u_ro_b;         // the same for the next slice along the hidden axis (FADE)
uniform vec4 u_centre;       // the player's animated centre in 4D
uniform float u_fade;
uniform vec3 u_eye;          // camera, in slice coordinates from the player's centre
uniform vec3 u_fwd;
uniform vec3 u_right;
uniform vec3 u_up;
uniform float u_tan;         // tan(fov / 2)
uniform vec2 u_resolution;
uniform vec4 u_goal;         // the goal cell's corner
uniform vec4 u_crate_lo;     // a moving crate's corner (MOVING_CRATE)
uniform ivec4 u_ao_a;        // by face axis: the two tangent axes occlusion looks along
uniform ivec4 u_ao_b;
uniform vec4 u_ao_pick[4];   // the same as a mask by face axis: 1.0 on those two
uniform mat4x3 u_to_slice;   // 4D to slice (across, depth, up): the basis transposed
uniform mat4x3 u_face_n;     // u_to_slice's columns made unit (face_normal)
uniform vec4 u_face_k;       // by axis: how much of that normal shows, its length / 0.2, at most 1
uniform float u_w_shows;     // how much w lies in the slice (0 with w hidden)
uniform uvec2 u_ghost_codes;  // the cell codes the ghost shows, lo to hi (solids, or ramps)
uniform float u_ghost;       // how strongly the ghost is drawn (fades through a turn)
uniform ivec4 u_player_cell;
uniform ivec4 u_ghost_step;  // from the feet plane's cell to the cell drawn as its ghost
uniform float u_ceiling;     // cut what is more than this above the player's centre
uniform float u_far;         // nothing is drawn farther than this from the eye
uniform float u_tunnel;      // the tunnel's radius round the line from player to camera
uniform vec2 u_wband;        // WRAP: the unwrapped w drawn, [lo, hi] (one turn and a little more)
uniform float u_goal_away;   // 0 with the goal in the slice, 1 a slice or more out of it
uniform vec4 u_stair[MOST_STAIR];  // STAIR: with w up, where ramps ana over the ceiling's cut
                             // hold you (pose.stair_cells)
uniform int u_stair_n;       // ... how many
uniform int u_stair_code[MOST_STAIR];  // ... the code of the ramp under each
uniform int u_slopes_n;      // GHOST with w up: how many ramps of the layer under the pawn,
                             // in its slice, but its own (pose.slope_ramps) ...
uniform vec4 u_slopes_box;   // ... and the box round them (x, y lo; x, y hi)
uniform ivec2 u_goal_plate;   // the view's up axis and the hidden axis, at rest with the goal in
                             // the slice (slice_footing's goal_plate); (-1, -1) otherwise
uniform vec4 u_mark_lo[2];   // MARKS: where a ramp step lands, or a push takes a crate (or far)
uniform float u_mark_way[2]; // +1 that step goes ana, -1 kata; +2 where a push takes a crate
uniform vec3 u_mark_dir[2];  // the way its chevrons point, in the slice
uniform vec3 u_tones[8];     // the palette: a block's tone by its w slice (eight round)
uniform vec3 u_mark_colour;  // the palette: the landing marks' colour
uniform vec3 u_out_colour;   // the palette: a pit you fall out from, its cross
uniform ivec4 u_held[MOST_HELD];     // the cells a crate kata holds up (render.held_cells), ...
uniform int u_held_n;        // ... how many (HELD_READ: too many to list)
uniform ivec4 u_crossed[MOST_CROSSED];  // the gaps a ramp's step crosses (x, y, w; pose.crossed_gaps)
uniform int u_crossed_n;     // ... how many
uniform vec4 u_bevel;        // by 4D axis: how far the edge on its + side turns up-left on screen
uniform vec4 u_toward;       // by 4D axis: how far its + side comes toward the eye on the ground
uniform float u_pattern;     // the palette: 1 where odd slices are striped too (never colour alone)
uniform vec3 u_window_to;   // the window round the pawn: its centre less the eye, in the slice
uniform vec4 u_window_k;    // |u_window_to|^2, 1 / radius^2, and the squares (by the radius)
                            // of the window's inside and of its rim's outer edge (1): -1 shut

noperspective in vec3 v_dir;              // the pixel's ray, unnormalised (slice.vert)
noperspective in vec4 v_rd;               // u_basis * v_dir
out vec4 frag;
#include "slice_march"


#if !defined(DEBUG)

#include "slice_shading"
#include "slice_footing"
#endif  // !DEBUG

void main() {
    float unit = inversesqrt(dot(v_dir, v_dir));
    vec3 dir = v_dir * unit;
    vec4 rd = v_rd * unit;
#if defined(DEBUG)
    vec4 ro = u_ro;
    Hit h = traverse(ro, rd, wrap_band(ro, rd, ceiling(u_eye, dir)));
    if (!h.found) {
        frag = vec4(-1.0, FACE_MISS, 0.0, 1.0);
    } else {
        float index = float(h.cell.x + u_size.x * (h.cell.y + u_size.y * (h.cell.z
                                                   + u_size.z * h.wcell)));
        float face = (h.axis < 0) ? FACE_INSIDE : float(1 + 2 * h.axis + (rd[h.axis] < 0.0 ? 1 : 0));
        frag = vec4(index, face, h.t, 1.0);
    }
#else
    float t_hit;
    vec3 col = trace_slice(u_ro, rd, dir, t_hit);
#ifdef FADE
    float t_b;
    vec3 col_b = trace_slice(u_ro_b, rd, dir, t_b);
    float k = smoothstep(0.0, 1.0, u_fade);
    col = mix(col, col_b, k);
    // The pawn is drawn against the slice that shows more: against the nearer of the two it
    // was hidden whenever the other slice had a block where it stands.
    t_hit = (k < 0.5) ? t_hit : t_b;
#endif
#if !defined(PLAIN) && !defined(EDIT)
    float t_pawn;
    col = draw_player(col, dir, t_hit, t_pawn);
#ifdef LID
    // the lid of what the window round the pawn cuts: over the pawn too, where nearer (a
    // variant, in the frames with the window open: llvmpipe pays for its body in every
    // pixel, inside the window or not, a sixth of the frame)
    float along = dot(u_window_to, dir);
    if ((u_window_k.x - along * along) * u_window_k.y < u_window_k.z) {
        col = window_lid(col, u_ro, rd, dir, min(t_hit, t_pawn));
    }
#endif
#endif
    // A gentle shoulder, so that the goal's glow saturates softly.
    col = col / (1.0 + 0.15 * col) * 1.15;
    frag = vec4(clamp(col, 0.0, 1.0), 1.0);
#endif
}
