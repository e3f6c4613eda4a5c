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
//   MARKS  where a step from a ramp lands (u_mark_lo), drawn at rest
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
uniform vec3 u_lane_shift;   // the slice's origin less the player's centre, in the slice
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
uniform vec4 u_mark_lo[2];   // MARKS: where a step from a ramp lands, in this slice (or far away)
uniform float u_mark_way[2]; // +1 that step goes ana, -1 kata

noperspective in vec3 v_dir;              // the pixel's ray, unnormalised (slice.vert)
noperspective in vec4 v_rd;               // u_basis * v_dir
out vec4 frag;


struct Hit {
    bool found;
    float t;          // where the ray enters the hit cell (or starts, past a cutaway)
    ivec4 cell;       // unwrapped cell (geometry); w wrapped for the texture separately
    int wcell;        // the wrapped w
    int axis;         // the axis crossed into the cell; -1 when the ray began inside it
    uint code;
};

// The texel of a cell whose w is already in [0, W): its code in the bits TEXEL_CODE_MASK,
// TEXEL_CUT where the tunnel cuts it, and its clearance (anabasis.picture.clearance) from
// bit CLEAR_SHIFT up.
uint cell_texel(ivec3 c, int w) {
    return texelFetch(u_cells, ivec3(c.x, c.y, c.z + u_size.z * w), 0).r;
}

// The code of a cell whose w is already in [0, W).
uint cell_code(ivec3 c, int w) {
    return cell_texel(c, w) & TEXEL_CODE_MASK;
}

#ifdef WRAP
const bool WRAPS = true;
#else
const bool WRAPS = false;
#endif

int wrap_w(int w) {
    // Compare-and-add: an integer % per step triples the loop's cost on llvmpipe.
    w += (w < 0) ? u_size.w : 0;
    w -= (w >= u_size.w) ? u_size.w : 0;
    return w;
}

// The ceiling cutaway, as the part [lo, hi] of the pixel's ray (slice coordinates, from the
// eye) that is drawn: up to u_ceiling above the player's centre.  It cuts by point, but at rest
// its plane is a grid plane, so whole cells go.  Cutting the ray instead of testing cells
// keeps the DDA loop as bare as the plain one.
// One division and selects: both sides of an `if` are paid on llvmpipe.
vec2 ceiling(vec3 eye, vec3 dir) {
    float t = (u_ceiling - eye.z) / dir.z;
    float level = (eye.z > u_ceiling) ? -1.0 : NEVER;  // a level ray: all of it, or none
    return vec2((dir.z < 0.0) ? max(t, 0.0) : 0.0,
                (dir.z > 0.0) ? t : (dir.z < 0.0) ? NEVER : level);
}

// A wrapped room is drawn one turn of w and a little of the next, never an endless tower: the
// part of the ray whose w lies in u_wband (grid planes, so whole cells, as the ceiling cuts).
vec2 wrap_band(vec4 ro, vec4 rd, vec2 cut) {
#ifdef WRAP
    if (rd.w != 0.0) {
        float a = (u_wband.x - ro.w) / rd.w;
        float b = (u_wband.y - ro.w) / rd.w;
        // The far plane a hair early: a cell entered just there is beyond it, in every pixel.
        cut = vec2(max(cut.x, min(a, b)), min(cut.y, max(a, b) - SNAP));
    } else if (ro.w < u_wband.x || ro.w > u_wband.y) {
        cut.y = -1.0;
    }
#endif
    return cut;
}

// The tunnel cutaway, by cell: a cell whose centre (slice coordinates from the player's
// centre) is above the player's level and within u_tunnel of the segment from the player to
// the camera.
bool tunnel(vec3 s) {
    float k = clamp(dot(s, u_eye) / dot(u_eye, u_eye), 0.0, 1.0);
    vec3 off = s - k * u_eye;
    return s.z > 0.5 && dot(off, off) < u_tunnel * u_tunnel;
}

// Per axis, when ro + t*rd enters (tn) and leaves (tf) the 4D box [lo, hi]; along an axis the
// ray does not move, all of it (inside) or none.  Shared by the grid (traverse) and one cell (box).
void slabs(vec4 ro, vec4 rd, vec4 lo, vec4 hi, out vec4 tn, out vec4 tf) {
    bvec4 moving = greaterThan(abs(rd), vec4(1e-9));
    vec4 inv = vec4(moving) / (rd + vec4(not(moving)));
    vec4 t1 = (lo - ro) * inv;
    vec4 t2 = (hi - ro) * inv;
    bvec4 inside = bvec4(vec4(greaterThanEqual(ro, lo)) * vec4(lessThanEqual(ro, hi)));
    vec4 still = mix(vec4(NEVER), vec4(-NEVER), inside);  // tn of an axis it does not move along
    tn = mix(still, min(t1, t2), moving);
    tf = mix(-still, max(t1, t2), moving);
}

#ifdef WRAP
#define WRAP_W w = wrap_w(w);
#else
#define WRAP_W
#endif
// One step of the DDA: to the earliest crossing, ties to the earlier axis.  Comparisons in the
// fixed order (x, then y, z, w) are about 5% quicker than an equality mask made first-of-ties
// by products.
#define DDA_STEP { \
    float mzw = min(tmax.z, tmax.w); \
    bool bx = tmax.x <= min(tmax.y, mzw); \
    bool by = !bx && tmax.y <= mzw; \
    bool bz = !bx && !by && tmax.z <= tmax.w; \
    bool bw = !(bx || by || bz); \
    c.x += bx ? stp.x : 0; \
    c.y += by ? stp.y : 0; \
    c.z += bz ? stp.z : 0; \
    w += bw ? stp.w : 0; \
    WRAP_W \
    tmax += mix(vec4(0.0), tdelta, bvec4(bx, by, bz, bw)); \
}

// Empty-space skipping: an empty cell of clearance r is the centre of an empty box reaching
// r - 1 cells out along every axis, and the ray goes at once to the cell where it leaves that
// box.  The box's far side along each axis is crossed at tmax + (r - 1) * tdelta; the earliest
// is where it leaves (ties to the earlier axis, as a step), by r crossings on that axis, and
// every other axis makes the crossings it makes before then.  With r = 1 this is exactly
// DDA_STEP.  i counts cells, not jumps, so that the step budget means what it did.
#define SKIP_STEP(r) { \
    float span = float(r) - 1.0; \
    vec4 leave = tmax + span * tdelta; \
    float mzw = min(leave.z, leave.w); \
    bool bx = leave.x <= min(leave.y, mzw); \
    bool by = !bx && leave.y <= mzw; \
    bool bz = !bx && !by && leave.z <= leave.w; \
    vec4 out_axis = vec4(bx, by, bz, !(bx || by || bz)); \
    float t_out = min(min(leave.x, leave.y), mzw); \
    vec4 n = mix(clamp(ceil((t_out - tmax) * speed), 0.0, span), vec4(span + 1.0), out_axis); \
    ivec4 ip = ivec4(n) * stp; \
    c += ip.xyz; \
    w += ip.w; \
    WRAP_W \
    tmax += n * tdelta; \
    i += int(n.x + n.y + n.z + n.w) - 1; \
}

// Where the ray entered the current cell: the latest of tmax - tdelta over the axes it moves
// along (enter, latest), and the cell's unwrapped w (w is wrapped) from the point it entered.
#define ENTRY { \
    enter = mix(vec4(-NEVER), tmax - tdelta, vec4(moving)); \
    latest = max(max(enter.x, enter.y), max(enter.z, enter.w)); \
    UNWRAP_W \
}
#ifdef WRAP
#define UNWRAP_W { \
    float pw = ro.w + rd.w * max(latest, t0); \
    wu = w + u_size.w * int(floor((pw - 0.5 - float(w)) / float(u_size.w) + 0.5)); \
}
#else
#define UNWRAP_W wu = w;
#endif

// The first solid cell along ro + t*rd (4D) for t in cut = [lo, hi], by an exact 4D DDA
// (Amanatides-Woo): one axis per step, ties to the earlier axis (x, y, z, w), w wrapping where
// the room wraps.
Hit traverse(vec4 ro, vec4 rd, vec2 cut) {
    Hit h;
    h.found = false;
    h.t = NEVER;
    h.axis = -1;
    h.code = CELL_EMPTY;
    bvec4 moving = greaterThan(abs(rd), vec4(1e-9));
    vec4 inv = vec4(moving) / (rd + vec4(not(moving)));
    // The box the walk runs in: the grid's (PLAIN) or the least box holding everything in the
    // room (a ray that misses it sees nothing, and one that meets it starts walking there);
    // w unbounded where it wraps.
#if defined(PLAIN)
    vec4 box_lo = vec4(0.0);
    vec4 box_hi = vec4(u_size);
#else
    vec4 box_lo = u_occupied_lo;
    vec4 box_hi = u_occupied_hi;
#endif
    vec4 tn, tf;
    slabs(ro, rd, box_lo, box_hi, tn, tf);
#ifdef WRAP
    tn.w = -NEVER;
    tf.w = NEVER;
#endif
    float tnear = max(max(tn.x, tn.y), max(tn.z, tn.w));
    float tfar = min(min(tf.x, tf.y), min(tf.z, tf.w));
    float t0 = max(max(tnear, 0.0), cut.x);
    float t_end = min(min(tfar, cut.y), u_far);
    if (t0 >= t_end) return h;
    // No ray needs more steps than the cells it can cross before t_end (down a wrapped
    // tower, that is where the fog has swallowed everything).
    int budget = min(MAX_STEPS, int((t_end - t0) * dot(abs(rd), vec4(1.0))) + 4);
    vec4 p = ro + rd * (t0 + HAIR);
    ivec4 c4 = ivec4(floor(p));
#ifdef WRAP
    c4.xyz = clamp(c4.xyz, ivec3(box_lo.xyz), ivec3(box_hi.xyz) - 1);
    int w = c4.w - u_size.w * int(floor(float(c4.w) / float(u_size.w)));
#else
    c4 = clamp(c4, ivec4(box_lo), ivec4(box_hi) - 1);
    int w = c4.w;
#endif
    ivec3 c = c4.xyz;
    ivec4 stp = ivec4(sign(rd)) * ivec4(moving);
    vec4 tmax = mix(vec4(NEVER), (vec4(c4) + vec4(greaterThan(rd, vec4(0.0))) - ro) * inv,
                    vec4(moving));
    vec4 tdelta = mix(vec4(NEVER), abs(inv), vec4(moving));
    vec4 speed = abs(rd) * vec4(moving);  // cells crossed per unit of t, by axis
    uvec4 usize = uvec4(u_size);
    uint code = CELL_EMPTY;
    // The bare DDA: only what must change per step is kept in the loop; the entry time, the
    // face crossed and the unwrapped w are worked out from tmax once it stops.  Outside PLAIN
    // it skips empty space (SKIP_STEP), and a cell the tunnel cuts is stepped past: in a room
    // that does not wrap, the renderer marks those cells in the texture (TEXEL_CUT) each frame,
    // so the loop passes them like empty ones; where w wraps a texel is also its copies round
    // the tower, so the test is made at each hit instead, and the walk goes on in another turn
    // of the outer loop.
    int i = 0;
    vec4 enter;
    float latest;
    int wu;
#if defined(WRAP) && !defined(PLAIN)
    for (int pass = 0; pass < MAX_STEPS; pass++) {
#endif
        for (; i < budget; i++) {
            // Negative coordinates become huge unsigned ones: one compare checks both ends.
            if (any(greaterThanEqual(uvec4(ivec4(c, w)), usize))) break;
#if defined(PLAIN)
            code = cell_code(c, w);
            if (code != CELL_EMPTY) break;
            DDA_STEP
#else
            uint texel = cell_texel(c, w);
            code = texel & TEXEL_STOP_MASK;  // the code, and the cut mark
            if (code - TEXEL_FIRST_SOLID < TEXEL_CODE_MASK) break;  // solid: empty and cut wrap round
#if defined(SKIP)
            SKIP_STEP(texel >> CLEAR_SHIFT)
#else
            DDA_STEP
#endif
#endif
        }
#if defined(WRAP) && !defined(PLAIN)
        if (code == CELL_EMPTY) break;
        ENTRY
        if (!tunnel(u_to_slice * (vec4(c, wu) + 0.5 - u_centre))) break;
        // Cut by the tunnel: step past it.
        code = CELL_EMPTY;
        DDA_STEP
        i++;
    }
#endif
    if (code - TEXEL_FIRST_SOLID >= TEXEL_CODE_MASK) return h;  // nothing solid met (or a cut cell last)
#if !(defined(WRAP) && !defined(PLAIN))
    ENTRY
#endif
    // The last crossing is the face, when it is where the ray started (within SNAP: the grid's
    // side, or the ceiling on a cell's face) or later; before that, the ray began inside the
    // cell (the camera's, or one cut through).
    float t = max(latest, t0);
    if (t > min(cut.y, u_far)) return h;
    h.found = true;
    h.t = t;
    h.code = code;
    h.axis = (latest < t0 - SNAP) ? -1 : (enter.x == latest) ? 0 : (enter.y == latest) ? 1
           : (enter.z == latest) ? 2 : 3;
    h.cell = ivec4(c, wu);
    h.wcell = w;
    return h;
}

#if !defined(DEBUG)

// -- shading --------------------------------------------------------------------------------

// Colours are in display space (no gamma at the end): what is written here is what shows.
const vec3 SKY_TOP = vec3(0.055, 0.065, 0.11);
const vec3 SKY_LOW = vec3(0.13, 0.14, 0.20);
const vec3 KEY_DIR = vec3(-0.42, 0.30, 0.86);   // slice coordinates, from above
const vec3 GOAL_COLOUR = vec3(1.00, 0.82, 0.30);
const vec3 RAMP_COLOUR = vec3(0.16, 0.80, 0.72);
const vec3 CRATE_COLOUR = vec3(0.78, 0.50, 0.24);
const vec3 PLAYER_COLOUR = vec3(0.98, 0.30, 0.52);
const vec3 GHOST_COLOUR = vec3(0.50, 0.72, 1.00);
const vec3 MARK_COLOUR = vec3(0.55, 1.00, 0.92);

// A tone per w-slice (hue), so that slices are told apart at a glance; z makes it lighter.
vec3 slice_tone(int w) {
    const vec3 tones[8] = vec3[8](
        vec3(0.52, 0.58, 0.72), vec3(0.78, 0.70, 0.54), vec3(0.56, 0.72, 0.54),
        vec3(0.70, 0.60, 0.80), vec3(0.80, 0.58, 0.50), vec3(0.54, 0.70, 0.80),
        vec3(0.72, 0.74, 0.48), vec3(0.80, 0.62, 0.70));
    return tones[w & 7];
}

vec3 background(vec3 dir) {
    return mix(SKY_LOW, SKY_TOP, clamp(dir.z * 0.8 + 0.5, 0.0, 1.0));
}

// Entry and exit of ro + t*rd through the 4D box [lo, lo+1]; x > y means no intersection.
vec2 box(vec4 ro, vec4 rd, vec4 lo, out int axis) {
    vec4 tn, tf;
    slabs(ro, rd, lo, lo + 1.0, tn, tf);
    float a = max(max(tn.x, tn.y), max(tn.z, tn.w));
    float b = min(min(tf.x, tf.y), min(tf.z, tf.w));
    axis = (tn.x == a) ? 0 : (tn.y == a) ? 1 : (tn.z == a) ? 2 : 3;
    return vec2(a, b);
}

// The slice normal of the face crossed on `axis` against rd: the 4D face normal projected into
// the slice, or the reversed view ray where it projects to (almost) nothing: mixed toward it
// while the projection is shorter than 0.2.  The unit normals and the mix are per frame
// (u_face_n, u_face_k): one normalize a pixel, no length, division or select.
vec3 face_normal(int axis, vec4 rd, vec3 dir) {
    if (axis < 0) return -dir;
    return normalize(mix(-dir, -sign(rd[axis]) * u_face_n[axis], u_face_k[axis]));
}

// The texel of any cell (w wrapped where the room wraps): 0 (empty, nothing beside it)
// outside the grid.
uint texel_at(ivec4 c) {
    c.w = WRAPS ? wrap_w(c.w) : c.w;
    // Negative coordinates become huge unsigned ones: one compare and one min check both ends.
    uvec4 u = uvec4(c);
    uvec4 last = uvec4(u_size - 1);
    bool in_grid = all(lessThanEqual(u, last));
    ivec4 k = ivec4(min(u, last));  // a texel of the room, whatever is asked
    uint texel = cell_texel(k.xyz, k.w);
    return in_grid ? texel : uint(0);
}

// The code of any cell (w wrapped where the room wraps): empty outside the grid.  For the
// shading's look-ups, once a pixel; the DDA loop reads the texture bare.
uint code_at(ivec4 c) {
    return texel_at(c) & TEXEL_CODE_MASK;
}

// How far up its lean (0 on the low side, 1 on the high) the point f (0..1 in the cell) is.
float ramp_lean(uint code, vec4 f) {
    return (code == CELL_RAMP_XP) ? f.x : (code == CELL_RAMP_XN) ? 1.0 - f.x
         : (code == CELL_RAMP_YP) ? f.y : 1.0 - f.y;
}

// 1.0 on the axis `axis` (0..3), 0.0 on the others.
vec4 axis_mask(int axis) {
    return vec4(equal(ivec4(axis), ivec4(0, 1, 2, 3)));
}

// Soft ambient occlusion from the cells beside the empty cell in front of the face, along the
// face's two tangent axes that show most in the slice (u_ao_a, u_ao_b, by face axis): no read
// of its own, the texel of the cell in front (`front`, read once for this and the footing)
// says which of its neighbours are solid.
float occlusion(ivec4 cell, uint front, int axis, int front_step, vec4 f) {
    if (axis < 0) return 1.0;
#ifdef WRAP
    // Where w wraps, the cells beside are read (two reads): the bits differed on a few edge
    // pixels of level 7 (not yet understood), so the wrapped picture keeps its old path.
    ivec4 base = cell - ivec4(axis_mask(axis)) * front_step;
    float occ = 0.0;
    for (int k = 0; k < 2; k++) {
        int j = (k == 0) ? u_ao_a[axis] : u_ao_b[axis];
        float near_edge = 1.0 - 2.0 * min(f[j], 1.0 - f[j]);
        ivec4 side = base + ivec4(axis_mask(j)) * ((f[j] < 0.5) ? -1 : 1);
        occ += (code_at(side) != CELL_EMPTY) ? near_edge * near_edge : 0.0;
    }
#else
    // All four axes at once, then the two that count (u_ao_pick[axis]): the near side's
    // neighbour bit (2j, or 2j + 1 on the far half) and how near that edge the point is.
    vec4 near_edge = 1.0 - 2.0 * min(f, 1.0 - f);
    uvec4 bit = uvec4(0, 2, 4, 6) + uvec4(greaterThanEqual(f, vec4(0.5)));
    vec4 solid = vec4((uvec4(front >> TEXEL_NEAR_SHIFT) >> bit) & uvec4(1));
    float occ = dot(solid * near_edge * near_edge, u_ao_pick[axis]);
#endif
    return 1.0 - 0.42 * min(occ, 1.5);
}

// How near the point is to an edge of its cell's face, in cells (axes other than the normal).
float edge_distance(vec4 f, int axis) {
    float e = 1.0;
    for (int j = 0; j < 4; j++) {
        if (j == axis) continue;
        e = min(e, min(f[j], 1.0 - f[j]));
    }
    return e;
}

// smoothstep(e0, e0 + k * line, x) by the pixel's 1 / line (g_inv_line, set with line):
// GLSL's smoothstep divides by its width, a division a call and a pixel on llvmpipe.
float g_inv_line;
float line_step(float e0, float k, float x) {
    float t = clamp((x - e0) * (g_inv_line * (1.0 / k)), 0.0, 1.0);
    return t * t * (3.0 - 2.0 * t);
}

// smoothstep(e0, e1, x) for constant edges, by the constant 1 / (e1 - e0): no division.
#define SOFT_STEP(e0, e1, x) soft_step((x) - (e0), 1.0 / ((e1) - (e0)))
float soft_step(float d, float inv_width) {
    float t = clamp(d * inv_width, 0.0, 1.0);
    return t * t * (3.0 - 2.0 * t);
}

// The albedo of a solid cell at the point whose position inside the cell is f (0..1 per axis).
vec3 albedo(uint code, ivec4 c, int w, vec4 f, int axis, float edge, float line) {
    vec3 col;
    if (code == CELL_CRATE) {
        // A crate: planks in a dark frame, unlike anything else in the room.
        float frame = line_step(0.11, 1.0, edge);
        float plank = 0.86 + 0.14 * abs(fract((f.x + f.y + f.w) * 2.5) * 2.0 - 1.0);
        col = mix(vec3(0.30, 0.15, 0.05), CRATE_COLOUR * plank, frame);
    } else if (code >= CELL_RAMP_XP && code <= CELL_RAMP_YN) {
        // A ramp rises ana (toward +w) along its lean.  Chevrons on every face point up the
        // lean, and it is brighter toward its high side.  Where w shows in the slice (w up, w
        // across) the wedge under the slope w = lean is bright and the rest dim, so the slope
        // itself is drawn.
        bool along_x = code == CELL_RAMP_XP || code == CELL_RAMP_XN;
        float lean = ramp_lean(code, f);
        int other_axis = along_x ? 1 : 0;
        float across = (axis == other_axis) ? f.z : (along_x ? f.y : f.x);
        // Up the lean is along (lean, w) in 4D: its trace in the slice is where the chevrons
        // point (up the lean with w hidden, up the slope with w up, ana with the lean hidden).
        float up_lean = lean + f.w - 0.5;
        float chevron = fract((up_lean + 0.8 * abs(across - 0.5)) * 2.0 + 0.25);
        float mark = line_step(0.0, 2.0, chevron)
                     * (1.0 - line_step(0.28, 2.0, chevron));
        float wedge = mix(1.0, line_step(-line, 2.0, lean - f.w), u_w_shows);
        col = RAMP_COLOUR * (0.62 + 0.45 * lean) * mix(0.4, 1.0, wedge);
        col = mix(col, vec3(0.02, 0.20, 0.18), 0.75 * mark);
#ifdef EDIT
    } else if (code == CELL_PLAYER) {
        // A player written into the room as a cell (the editor's): the pawn's colour.  Only
        // the editor has them, and every pixel pays for this code: EDIT only.
        col = PLAYER_COLOUR * (1.0 - 0.35 * smoothstep(0.3, 0.5, max(abs(f.x - 0.5),
                                                                  abs(f.y - 0.5))));
#endif
    } else {
        // A block: its slice's tone, lighter with height.
        float height = float(c.z) * (1.0 / max(float(u_size.z - 1), 1.0));
        col = slice_tone(w) * (0.62 + 0.45 * height);
    }
    // Cell edges drawn as lines, so that single blocks read as blocks.
    col *= 0.62 + 0.38 * line_step(0.0, 1.5, edge);
    return col;
}

vec3 light(vec3 col, vec3 n, vec3 dir) {
    float key = max(dot(n, normalize(KEY_DIR)), 0.0);
    float fill = max(dot(n, -dir), 0.0);
    float sky = 0.5 + 0.5 * n.z;
    return col * (0.16 + 0.58 * key + 0.16 * fill + 0.16 * sky);
}

// A soft shadow right under the player, so that its height over the floor reads.
float player_shadow(vec3 s) {
    if (s.z > -0.3) return 1.0;
    float d = length(s.xy);
    return 1.0 - 0.5 * (1.0 - SOFT_STEP(0.2, 0.55, d)) * clamp(1.0 + (s.z + 0.5) * 0.3, 0.3, 1.0);
}

vec3 fog(vec3 col, vec3 s, vec3 dir) {
    float dist = length(s);
    float amount = clamp((dist - FOG_START) * (1.0 / (FAR - FOG_START)), 0.0, 1.0);  // all fog by FAR
    return mix(col, background(dir), amount);
}

// -- footing: ground or a drop ------------------------------------------------------------

const vec3 DROP_COLOUR = vec3(0.035, 0.035, 0.065);

// Whether the face crossed into `cell` on `axis` is one a mover rests on, and if so whether it
// holds: 1 ground (held by both downs), 0 a drop (it holds against one down and not the other:
// step on it and you slip kata, or fall in z), -1 not a face anything rests on.  A top face
// (+z) holds when the cell kata of the one above it is solid or the cell itself is a ramp; a
// face ana (+w) holds when the cell below the one ana of it is solid.  `above` is the cell a
// mover would stand in.  One texel read, once per pixel: the texel of `above` carries whether
// the cells kata of it and below it are solid (anabasis.picture.clearance.near); `above` is the
// cell in front of the face when it is one a mover rests on, and `texel` its texel (read once
// for this and the occlusion).
int footing(ivec4 cell, int axis, vec4 rd, uint code, uint texel, out ivec4 above) {
    bool top = axis == 2;
    if (!(top ? rd.z < 0.0 : axis == 3 && rd.w < 0.0)) return -1;
    above = cell + (top ? ivec4(0, 0, 1, 0) : ivec4(0, 0, 0, 1));
    if (above.z >= u_size.z || (!WRAPS && above.w >= u_size.w)) return -1;  // the ceiling
    if ((texel & TEXEL_CODE_MASK) != CELL_EMPTY) return -1;  // covered: only seen through a cutaway
    if (top && code >= CELL_RAMP_XP && code <= CELL_RAMP_YN) return 1;
    uint held = top ? TEXEL_KATA_SOLID : TEXEL_BELOW_SOLID;
    return (texel & held) == held ? 1 : 0;
}

// A drop's face: a dark pit with its rim still drawn, so that it reads as a hole to fall
// through, never as the path.
vec3 drop_face(vec3 col, vec4 f, int axis, float edge, float line) {
    float rim = line_step(0.05, 3.0, edge);
    float depth = SOFT_STEP(0.05, 0.45, edge);
    vec3 pit = mix(DROP_COLOUR * 2.2, DROP_COLOUR, depth);
    return mix(col * 0.8, pit, 0.35 + 0.6 * rim);
}

// The player's row and column, drawn on the ground as two lanes with a dotted line down their
// middle: what lies in line with the player (a crate to push, the goal straight ahead, a tall
// block's top) reads at a glance, at any height.  By the cell's and the point's place in the
// slice (across, depth) against the player's centre: no texel read.  `s` is the point in slice
// coordinates from the slice's origin (what the fog measures); of the cell's centre only its
// across and depth are needed: two dot products, no matrix.
vec3 lane(vec3 col, ivec4 cell, vec3 s_hit, float line) {
    vec4 c = vec4(cell) + 0.5 - u_centre;
    bool row = abs(dot(u_basis[1], c)) < 0.5;     // the cell's centre in depth ...
    bool column = abs(dot(u_basis[0], c)) < 0.5;  // ... and across
    vec3 q = s_hit + u_lane_shift;
    float off = row ? abs(q.y) : abs(q.x);
    float run = row ? q.x : q.y;
    float dots = step(0.5, fract(run * 3.0)) * (1.0 - line_step(line, 1.0, off));
    vec3 lit = col * 1.1 + vec3(0.02) + 0.35 * dots * vec3(1.0, 0.95, 0.9);
    return (row || column) ? lit : col;
}

// The goal's floor: a bright frame inside the face and a warm fill, so that which cell is the
// goal is plain even where its glow is hidden.
vec3 goal_floor(vec3 col, float edge, float line) {
    float frame = line_step(0.07, 1.0, edge) * (1.0 - line_step(0.17, 1.0, edge));
    vec3 fill = mix(col, GOAL_COLOUR * 0.85, 0.55);
    return mix(fill, GOAL_COLOUR * 1.6, frame);
}

#ifdef GHOST
// The ghost of the floor out of the slice, drawn as a dashed outline with a faint fill on the
// plane just under the player's feet, only where this slice has no floor there: with w hidden
// (u_ghost_step = +w), the floor one slice ana (where a ramp lands you, a stair or a ledge
// ahead); with z hidden (+w - z), the layer below, where a ramp holds the player kata.  Ramps
// in their own colour, with their lean.
// Dashed and hollow, it is never a solid (solids are opaque, with lit faces) nor a cutaway
// (what a cutaway takes is simply not drawn).
// llvmpipe pays for all of this in every pixel, drawn or not (a tenth of the frame), so the
// renderer leaves GHOST out of a frame whose plane meets no cell with a ghost to show
// (render.feet_plane_meets, on the CPU).
vec3 ghost(vec3 col, vec4 ro, vec4 rd, vec3 dir, float t_hit) {
    float tp = (FEET - u_eye.z) / dir.z;
    if (!(dir.z < 0.0 && tp > 0.0 && tp < t_hit)) return col;
    vec4 p = ro + rd * tp;
    ivec4 c = ivec4(floor(p));
    uint code = code_at(c + u_ghost_step);
    // Its body costs about half the shading where it runs: keep it to the pixels it draws.
    if (code < u_ghost_codes.x || code > u_ghost_codes.y) return col;
    bool ramp = code >= CELL_RAMP_XP && code <= CELL_RAMP_YN;
    vec4 f = p - floor(p);
    float edge = min(min(f.x, 1.0 - f.x), min(f.y, 1.0 - f.y));
    float line = tp * (1.4 * u_tan / u_resolution.y);
    float outline = 1.0 - smoothstep(1.5 * line, 3.0 * line, abs(edge - 0.06));
    float dash = step(0.5, fract((f.x + f.y) * 4.0));
    vec3 tint = ramp ? RAMP_COLOUR : GHOST_COLOUR;
    float fill = 0.16;
    if (ramp) {
        // Its lean, as the ramp's own chevrons would show it.
        fill += 0.22 * step(0.6, fract(ramp_lean(code, f) * 3.0));
    }
    return mix(col, tint, u_ghost * (fill + 0.65 * outline * dash));
}
#endif

#ifdef MARKS
// Where a step from the ramp underfoot lands (ana or kata), drawn in this slice as the cell's
// outline with arrows along the way it goes; over whatever is there, since the step goes
// round it through w.  A box test per mark, like the goal's.  A variant: its code alone cost
// +0.4 of plain on llvmpipe even with no mark to draw.
vec3 ramp_marks(vec3 col, vec4 ro, vec4 rd, float t_hit) {
    for (int i = 0; i < 2; i++) {
        int axis;
        vec2 m = box(ro, rd, u_mark_lo[i], axis);
        if (m.x > m.y || m.y <= 0.0 || m.x > t_hit + 0.02) continue;
        vec4 q = ro + rd * max(m.x, 0.0);
        vec4 f = clamp(q - u_mark_lo[i], 0.0, 1.0);
        float line = max(m.x, 1.0) * (1.4 * u_tan / u_resolution.y);
        float edge = edge_distance(f, axis);
        float outline = 1.0 - smoothstep(1.5 * line, 3.5 * line, edge);
        // On its sides two chevrons point the way the step goes: up for ana (the second up),
        // down for kata.  Its top is only tinted.
        vec3 qs = u_to_slice * (q - u_mark_lo[i] - 0.5);
        vec3 ns = u_to_slice[axis];
        float across = abs(dot(qs, vec3(-ns.y, ns.x, 0.0)));
        float v = qs.z * u_mark_way[i] + 0.9 * across;
        float mark = (abs(ns.z) > 0.5 || across > 0.34) ? 0.0
                   : step(abs(v - 0.28), 0.07) + step(abs(v - 0.02), 0.07);
        col = mix(col, MARK_COLOUR, max(max(0.9 * outline, 0.85 * mark), 0.22));
    }
    return col;
}
#endif

// The colour of the slice whose eye (4D) is `ro`, along the pixel's ray `dir` (rd in 4D).
vec3 trace_slice(vec4 ro, vec4 rd, vec3 dir, out float t_hit) {
#if defined(PLAIN)
    Hit h = traverse(ro, rd, vec2(0.0, NEVER));
#else
    Hit h = traverse(ro, rd, wrap_band(ro, rd, ceiling(u_eye, dir)));
#endif
    t_hit = h.found ? h.t : NEVER;
    float line = max(h.t, 1.0) * (1.4 * u_tan / u_resolution.y);  // no division a pixel
    g_inv_line = 1.0 / line;
#if defined(PLAIN)
    if (!h.found) return background(dir);
    vec3 flat_colour = vec3(0.35 + 0.2 * float(h.axis + 1), 0.5, 0.6);
    return flat_colour * (h.code == CELL_CRATE ? 0.7 : 1.0);
#else
    vec3 col = background(dir);
#ifdef MOVING_CRATE
    int moving_axis;
    vec2 mc = box(ro, rd, u_crate_lo, moving_axis);
    if (mc.x <= mc.y && mc.y > 0.0 && mc.x < t_hit) {
        t_hit = max(mc.x, 0.0);
        vec4 p = ro + rd * t_hit;
        vec4 f = clamp(p - u_crate_lo, 0.0, 1.0);
        float edge = edge_distance(f, moving_axis);
        vec3 n = face_normal(moving_axis, rd, dir);
        col = light(albedo(CELL_CRATE, ivec4(0), 0, f, moving_axis, edge, line), n, dir);
        col = fog(col, u_eye + dir * t_hit, dir);
    } else
#endif
    if (h.found) {
        vec4 p = ro + rd * h.t;
        vec4 cell = vec4(h.cell);
        vec4 f = clamp(p - cell, 0.0, 1.0);
        float edge = edge_distance(f, h.axis);
        vec3 n = face_normal(h.axis, rd, dir);
        col = albedo(h.code, h.cell, h.wcell, f, h.axis, edge, line);
        // The empty cell in front of the face: one read for the occlusion and the footing.
        ivec4 front = h.cell;
        if (h.axis >= 0) front[h.axis] -= int(sign(rd[h.axis]));
        uint front_texel = texel_at(front);
        col *= occlusion(h.cell, front_texel, h.axis, (h.axis >= 0) ? int(sign(rd[h.axis])) : 0, f);
        vec3 s = u_eye + dir * h.t;
        col = light(col, n, dir) * player_shadow(s);
        ivec4 above;
        int foot = footing(h.cell, h.axis, rd, h.code, front_texel, above);
        if (foot == 0) col = drop_face(col, f, h.axis, edge, line);
        if (foot == 1) col = lane(col, h.cell, s, line);
        if (foot >= 0 && all(equal(above, ivec4(floor(u_goal + 0.5))))) {
            col = goal_floor(col, edge, line);
        }
#ifdef WRAP
        // Cells of the next turn of w (copies of this one's) are drawn faded.
        int turn_w = h.cell.w - u_player_cell.w;
        if (turn_w > 0 || turn_w <= -u_size.w) col = mix(col, background(dir), 0.45);
#endif
        col = fog(col, s, dir);
    }
#ifdef GHOST
    col = ghost(col, ro, rd, dir, t_hit);
#endif
    // The goal glows: light along the ray's path through its cell, and a halo round it that
    // dims with the distance in 4D (so a goal a slice away still shows, faintly).
#ifdef MARKS
    col = ramp_marks(col, ro, rd, t_hit);
#endif
    // The goal: a faint light in its cell and its floor marked (above);
    // no halo spills onto its neighbours while it is in the slice.  Out of the slice, a halo
    // that dims with the distance in 4D says it is near.
    int goal_axis;
    vec2 g = box(ro, rd, u_goal, goal_axis);
    float inside = max(min(g.y, t_hit) - max(g.x, 0.0), 0.0);
    vec4 to_goal = u_goal + 0.5 - ro;
    float tc = clamp(dot(to_goal, rd), 0.0, t_hit);
    float d2 = dot(to_goal - rd * tc, to_goal - rd * tc);
    float halo = u_goal_away / (1.0 + 2.2 * d2);
    col += GOAL_COLOUR * (0.5 * inside / (inside + 0.6) + 0.35 * halo * halo);
    return col;
#endif
}

// The player: a pawn of two spheres at the slice's origin (the slice always passes through
// the player's centre).  Returns the ray's distance to it, or NEVER.
float sphere(vec3 ro, vec3 rd, vec3 centre, float radius) {
    vec3 oc = ro - centre;
    float b = dot(oc, rd);
    float c = dot(oc, oc) - radius * radius;
    float disc = b * b - c;
    if (disc < 0.0) return NEVER;
    float t = -b - sqrt(disc);
    return t > 0.0 ? t : NEVER;
}

vec3 draw_player(vec3 col, vec3 dir, float t_hit) {
    const vec3 BODY = vec3(0.0, 0.0, -0.14);
    const vec3 HEAD = vec3(0.0, 0.0, 0.27);
    float tb = sphere(u_eye, dir, BODY, 0.30);
    float th = sphere(u_eye, dir, HEAD, 0.19);
    float t = min(tb, th);
    if (t >= NEVER) return col;
    vec3 p = u_eye + dir * t;
    // A point on a sphere is its radius from the centre: no normalize.
    vec3 n = (tb < th) ? (p - BODY) * (1.0 / 0.30) : (p - HEAD) * (1.0 / 0.19);
    float rim = 1.0 - max(dot(n, -dir), 0.0);
    rim *= rim;
    if (t >= t_hit) {
        // Behind something: its outline and a hatching of its colour, so the player is never
        // lost from sight and what stands in front stays opaque between the strokes (a wall
        // drawn half see-through read as a ghost, or as the player standing in it).
        float hatch = step(0.55, fract((gl_FragCoord.x + gl_FragCoord.y) * 0.2));
        return mix(col, PLAYER_COLOUR, max(SOFT_STEP(0.55, 0.8, rim), hatch));
    }
    vec3 lit = PLAYER_COLOUR * (0.35 + 0.6 * max(dot(n, normalize(KEY_DIR)), 0.0)
                                + 0.25 * max(n.z, 0.0));
    return lit + vec3(1.0, 0.85, 0.9) * rim * 0.45;
}

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
    col = mix(col, col_b, smoothstep(0.0, 1.0, u_fade));
    t_hit = min(t_hit, t_b);
#endif
#if !defined(PLAIN) && !defined(EDIT)
    col = draw_player(col, dir, t_hit);
#endif
    // A gentle shoulder, so that the goal's glow saturates softly.
    col = col / (1.0 + 0.15 * col) * 1.15;
    frag = vec4(clamp(col, 0.0, 1.0), 1.0);
#endif
}
