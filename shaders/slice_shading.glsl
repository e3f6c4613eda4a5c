// Shading a hit: the sky, colours, light, occlusion, lines, the fog.
// (a chunk of slice.frag, joined to it by moderngl's ctx.includes: #include "slice_shading")
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
// A tone per w-slice (hue), so that slices are told apart at a glance: the palette's
// (anabasis.picture.pose.PALETTES, a uniform: the colour-blind-safe one differs).
vec3 slice_tone(int w) {
    return u_tones[w & 7];
}

vec3 background(vec3 dir) {
    return mix(SKY_LOW, SKY_TOP, clamp(dir.z * 0.8 + 0.5, 0.0, 1.0));
}

// Entry and exit of ro + t*rd through the 4D cell [lo, lo+1] (:func:`span`); x > y means no
// intersection.
vec2 box(vec4 ro, vec4 rd, vec4 lo, out int axis) {
    return span(ro, rd, lo, lo + 1.0, axis);
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

// A floor's shade past a raised top: where the cell beside the floor's, at the level of one
// standing on it, is solid on the eye's side (u_toward), that block stands higher between the
// eye and the floor, and hides the floor's edge under it (with the steep camera, a third of a
// row for a block one high), so the corner's occlusion darkened only what it hid.  This shade
// is a shadow's band, even to six tenths of the cell and soft only at its end: past the
// block's lit far rim (lip), the lower floor lies in its shadow, and reads as lower (shaded
// by a gradient instead, a top between two walls read as rounded, as a ramp).  The bits of
// the cell in front (`front`) say which neighbours are solid; where w wraps they are read
// (as the occlusion does there).  Through the window round the pawn, what it cuts casts
// nothing: the floor is drawn as with no wall (shaded, the pawn read as sunk in a pit).
float cast_shade(ivec4 front_cell, uint front, int axis, int front_step, vec4 f) {
    // (a top seen from above, not through the window)
    if (front_step >= 0 || abs(u_basis[2][axis]) < 0.5 || g_windowed) return 1.0;
    float shade = 0.0;
    for (int k = 0; k < 2; k++) {
        int j = (k == 0) ? u_ao_a[axis] : u_ao_b[axis];
        float way = u_toward[j];
        if (abs(way) < 0.5) continue;
        bool plus = way > 0.0;
#ifdef WRAP
        bool solid = code_at(front_cell + ivec4(axis_mask(j)) * (plus ? 1 : -1)) != CELL_EMPTY;
#else
        uint bit = TEXEL_NEAR_SHIFT + uint(2 * j + (plus ? 1 : 0));
        bool solid = ((front >> bit) & uint(1)) != uint(0);
#endif
        float d = plus ? 1.0 - f[j] : f[j];  // in cells, from that edge
        if (solid) shade = max(shade, 1.0 - smoothstep(0.5, 0.7, d));
    }
    return 1.0 - 0.55 * shade;
}

// Soft ambient occlusion from the cells beside the empty cell in front of the face, along the
// face's two tangent axes that show most in the slice (u_ao_a, u_ao_b, by face axis): no read
// of its own, the texel of the cell in front (`front`, read once for this and the footing)
// says which of its neighbours are solid.
float occlusion(ivec4 cell, uint front, int axis, int front_step, vec4 f) {
    if (axis < 0) return 1.0;
    // A neighbour the ceiling cuts away is not drawn, so it darkens nothing: counted, the tops
    // just under the ceiling (the walls at the pawn's level with w up) were shaded as pillows,
    // rounded like ramps.  The front cell's height, and each neighbour's, in the slice's up.
    ivec4 front_cell = cell - ivec4(axis_mask(axis)) * front_step;
    float front_up = dot(vec4(front_cell) + 0.5 - u_centre, u_basis[2]);
    vec4 side = vec4(greaterThanEqual(f, vec4(0.5))) * 2.0 - 1.0;
    vec4 kept = vec4(lessThan(front_up + side * u_basis[2], vec4(u_ceiling + 0.5 - SNAP)));
    if (front_up >= u_ceiling + 0.5 - SNAP) return 1.0;
#ifdef WRAP
    // The same for the wrap band's far side (nothing ana of the pawn is drawn).
    if (float(front_cell.w) >= u_wband.y - SNAP) return 1.0;
    // Where w wraps, the cells beside are read (two reads): the bits differed on a few edge
    // pixels of level 7 (not yet understood), so the wrapped picture keeps its old path.
    ivec4 base = cell - ivec4(axis_mask(axis)) * front_step;
    float occ = 0.0;
    for (int k = 0; k < 2; k++) {
        int j = (k == 0) ? u_ao_a[axis] : u_ao_b[axis];
        float near_edge = 1.0 - 2.0 * min(f[j], 1.0 - f[j]);
        ivec4 beside = base + ivec4(axis_mask(j)) * ((f[j] < 0.5) ? -1 : 1);
        float drawn = (float(beside.w) < u_wband.y - SNAP) ? kept[j] : 0.0;
        occ += (code_at(beside) != CELL_EMPTY) ? near_edge * near_edge * drawn : 0.0;
    }
#else
    // All four axes at once, then the two that count (u_ao_pick[axis]): the near side's
    // neighbour bit (2j, or 2j + 1 on the far half) and how near that edge the point is.
    vec4 near_edge = 1.0 - 2.0 * min(f, 1.0 - f);
    uvec4 bit = uvec4(0, 2, 4, 6) + uvec4(greaterThanEqual(f, vec4(0.5)));
    vec4 solid = vec4((uvec4(front >> TEXEL_NEAR_SHIFT) >> bit) & uvec4(1)) * kept;
    float occ = dot(solid * near_edge * near_edge, u_ao_pick[axis]);
#endif
    return (1.0 - 0.42 * min(occ, 1.5)) * cast_shade(front_cell, front, axis, front_step, f);
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

// A ramp's teal at a point `lean` of the way up its lean, `up` along the way its chevrons
// point and `across` its width (0..1), `wedge` 1 where it is solid (dimmed where not):
// brighter up the lean, dark chevrons pointing up it, and its high side's edge lit, as the
// map lights a ramp's tip (with w hidden the slope is not drawn, and blind players found
// nothing in the shading to say which side was high, t262).  The ramps in the slice and
// the w-up view's slopes (ramp_slope), by line_step's pixel width (g_inv_line).
vec3 ramp_paint(float lean, float up, float across, float wedge) {
    float chevron = fract((up + 0.8 * abs(across - 0.5)) * 2.0 + 0.25);
    float mark = line_step(0.0, 2.0, chevron) * (1.0 - line_step(0.28, 2.0, chevron));
    vec3 col = RAMP_COLOUR * (0.62 + 0.45 * lean) * mix(0.4, 1.0, wedge);
    col = mix(col, vec3(0.02, 0.20, 0.18), 0.75 * mark);
    return mix(col, vec3(0.85, 1.00, 0.96), 0.9 * line_step(0.84, 1.5, lean) * wedge);
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
        float wedge = mix(1.0, line_step(-line, 2.0, lean - f.w), u_w_shows);
        col = ramp_paint(lean, up_lean, across, wedge);
#ifdef EDIT
    } else if (code == CELL_PLAYER) {
        // A player written into the room as a cell (the editor's): the pawn's colour.  Only
        // the editor has them, and every pixel pays for this code: EDIT only.
        col = PLAYER_COLOUR * (1.0 - 0.35 * smoothstep(0.3, 0.5, max(abs(f.x - 0.5),
                                                                  abs(f.y - 0.5))));
#endif
    } else {
        // A block: its slice's tone, shaded by its height against the pawn's, in the view's
        // up (so the same in every view): the floor the pawn stands on (its top at the feet)
        // plain, each level lower darker, and what rises to the pawn's level and above (a
        // wall, a ledge to climb) paler and lighter, never read as the floor beside the pawn.
        float rise = dot(vec4(c) + 0.5 - u_centre, u_basis[2]) + 1.0;
        float lower = clamp(-rise, 0.0, 3.0);
        float wall = clamp(rise, 0.0, 2.0);
        col = mix(slice_tone(w), vec3(0.93, 0.93, 0.95), 0.30 * min(wall, 1.0))
              * (0.85 - 0.13 * lower + 0.14 * wall);
        // The colour-blind-safe palette stripes the odd slices' blocks as well: two slices
        // side by side differ in shape, not in colour alone.
        float stripe = step(0.72, fract((f.x + f.y + f.z + f.w) * 2.5));
        col *= 1.0 - 0.22 * u_pattern * float(w & 1) * stripe;
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

