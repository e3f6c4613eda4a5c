// The ray through the 4D grid: the cells, the slabs, the march to the first solid cell.
// (a chunk of slice.frag, joined to it by moderngl's ctx.includes: #include "slice_march")


struct Hit {
    bool found;
    float t;          // where the ray enters the hit cell (or starts, past a cutaway)
    ivec4 cell;       // unwrapped cell (geometry); w wrapped for the texture separately
    int wcell;        // the wrapped w
    int axis;         // the axis crossed into the cell; -1 when the ray began inside it
    uint code;
    uint near;        // its texel's neighbour bits (TEXEL_NEAR_SHIFT on), from the walk's read
};

// -- the window round the pawn ---------------------------------------------------------------
// Where something stands between the eye and the pawn, a round window is cut in it: inside a
// disc round the pawn (as the eye sees it) the walk steps past the cells that hide it, so the
// pawn is drawn solid and lit with the cell it stands on, and a rim in the pawn's colour round
// the window (slice_footing's window_rim) says it is a hole cut in what stands in front.
// In a room that does not wrap the renderer marks the cells the window may cut in the texture
// each frame (a solid cell's clearance bits, otherwise 0: render.Renderer._window), and the
// walk inside the window reads them too (g_stop), so it passes them like empty ones and costs
// nothing more; where w wraps it tests each hit (hides_pawn), as the tunnel does.
// (twins.WINDOW_CENTRE, twins.WINDOW_RADIUS; the frame opens it where twins.pawn_hidden says)
const vec3 WINDOW_CENTRE = vec3(0.0, 0.0, -0.15);  // from the player's centre, in the slice
const float WINDOW_RADIUS = 0.7;                   // in cells, at the pawn

uint g_stop = TEXEL_STOP_MASK;  // the texel bits that stop the walk (the window's add the cut)
bool g_window = false;          // the pixel is inside the window
bool g_windowed = false;        // the same, kept past the walk (cast_shade)
vec3 g_dir = vec3(0.0);         // the pixel's ray, in the slice

// How far out of the window the pixel's ray passes, by the radius: under 1 inside it.  The
// ray's nearest approach to the window's centre.  (trace_slice works out its square from
// per-frame uniforms, u_window_to and u_window_k, render.Renderer._window.)
float window_at(vec3 dir) {
    vec3 to = WINDOW_CENTRE - u_eye;
    vec3 off = to - dir * dot(to, dir);
    return sqrt(dot(off, off)) * (1.0 / WINDOW_RADIUS);
}

// Whether `cell` is one the window steps past: it stands at the pawn's level or above (the
// floor under the pawn and lower cells always show) and nearer the eye than the pawn along
// the pixel's ray (twins.window_cells says the same of the cells it marks).
bool hides_pawn(ivec4 cell, vec3 dir) {
    vec3 s = u_to_slice * (vec4(cell) + 0.5 - u_centre);
    return s.z > -0.5 && dot(s, dir) < -0.3;
}

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
// the camera.  Never a crate (the renderer does not mark one, and the wrapped walk asks):
// a mover cut away left a striped hole, and a blind player took it for a gap; the window
// round the pawn shows the pawn past one in the way.
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

// Entry and exit of ro + t*rd through the 4D box [lo, hi], and the axis it enters across;
// x > y means no intersection.
vec2 span(vec4 ro, vec4 rd, vec4 lo, vec4 hi, out int axis) {
    vec4 tn, tf;
    slabs(ro, rd, lo, hi, tn, tf);
    float a = max(max(tn.x, tn.y), max(tn.z, tn.w));
    float b = min(min(tf.x, tf.y), min(tf.z, tf.w));
    axis = (tn.x == a) ? 0 : (tn.y == a) ? 1 : (tn.z == a) ? 2 : 3;
    return vec2(a, b);
}

// A crate's box: its cell less CRATE_INSET on each side along x and y (it rests on both downs,
// so z and w are whole).  (where the ray enters it, the axis it enters across), or NEVER where
// the ray misses it or has left it.
const vec4 CRATE_INSET_V = vec4(CRATE_INSET, CRATE_INSET, 0.0, 0.0);
vec2 crate_box(vec4 ro, vec4 rd, vec4 cell) {
    int axis;
    vec2 s = span(ro, rd, cell + CRATE_INSET_V, cell + 1.0 - CRATE_INSET_V, axis);
    return (s.x <= s.y && s.y > 0.0) ? vec2(s.x, float(axis)) : vec2(NEVER);
}

// Where in a crate's inset box (0..1 each axis) the point p of a crate in `cell` lies: its
// planks and frame are drawn on the box's faces, not the cell's.
vec4 crate_f(vec4 p, vec4 cell) {
    return clamp((p - cell - CRATE_INSET_V) / (1.0 - 2.0 * CRATE_INSET_V), 0.0, 1.0);
}

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
    uint texel = uint(0);  // (the last cell's texel: the hit's, its neighbour bits kept)
    vec4 enter;
    float latest;
    int wu;
    vec2 crate_hit = vec2(NEVER);  // a crate's inset box: where the ray enters it, and the axis
#if !defined(PLAIN)
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
            texel = cell_texel(c, w);
            code = texel & g_stop;  // the code, and the cut marks
            if (code - TEXEL_FIRST_SOLID < TEXEL_CODE_MASK) break;  // solid: empty and cut wrap round
#if defined(SKIP)
            SKIP_STEP(texel >> CLEAR_SHIFT)
#else
            DDA_STEP
#endif
#endif
        }
#if !defined(PLAIN)
        bool crate = (code & TEXEL_CODE_MASK) == CELL_CRATE;
        // A crate is met only where the ray meets its inset box (crate_box); past its sides
        // the ray goes on to its cell's floor, or what lies beyond.
#if defined(WRAP)
        if (code - TEXEL_FIRST_SOLID >= TEXEL_CODE_MASK) break;  // nothing solid met
        ENTRY
        // (a crate never cut, by the tunnel or the window: render.Renderer._window)
        bool kept = crate || (!tunnel(u_to_slice * (vec4(c, wu) + 0.5 - u_centre))
                              && !(g_window && hides_pawn(ivec4(c, wu), g_dir)));
        if (kept && crate) {
            crate_hit = crate_box(ro, rd, vec4(c, wu));
            kept = crate_hit.x < NEVER;
        }
#else
        // (where w does not wrap, only a crate can send the walk on: every other stop, solid
        // or not, leaves at once, the bare walk's way, and the entry is worked out once, after
        // the loop; a test of its box inside the walk's loop, or a second walk after it, cost
        // every ray more on llvmpipe than this)
        if (!crate) break;
        crate_hit = crate_box(ro, rd, vec4(c, w));
        bool kept = crate_hit.x < NEVER;
#endif
        if (kept) break;
        // Cut by the tunnel or the window round the pawn (never a crate), or past a crate's
        // side: step past it.
        code = CELL_EMPTY;
        DDA_STEP
        i++;
    }
#endif
    if (code - TEXEL_FIRST_SOLID >= TEXEL_CODE_MASK) return h;  // nothing solid met (or a cut cell last)
#if !defined(WRAP) || defined(PLAIN)
    ENTRY
#endif
#if !defined(PLAIN)
    if ((code & TEXEL_CODE_MASK) == CELL_CRATE) {  // the inset box's face, not the cell's
        latest = crate_hit.x;
        enter = mix(vec4(-NEVER), vec4(latest), equal(vec4(crate_hit.y), vec4(0.0, 1.0, 2.0, 3.0)));
    }
#endif
    // The last crossing is the face, when it is where the ray started (within SNAP: the grid's
    // side, or the ceiling on a cell's face) or later; before that, the ray began inside the
    // cell (the camera's, or one cut through).
    float t = max(latest, t0);
    if (t > min(cut.y, u_far)) return h;
    h.found = true;
    h.t = t;
    h.code = code;
    h.near = texel >> TEXEL_NEAR_SHIFT;
    h.axis = (latest < t0 - SNAP) ? -1 : (enter.x == latest) ? 0 : (enter.y == latest) ? 1
           : (enter.z == latest) ? 2 : 3;
    h.cell = ivec4(c, wu);
    h.wcell = w;
    return h;
}
