// Self-test fixture (scripts/synth/selftest.sh), not part of the design: types for fx_acc.
`default_nettype none

package fx_pkg;

  typedef struct packed {
    logic [3:0] tag;
    logic [7:0] val;
  } item_t;

  typedef enum logic {
    ModeAdd = 1'b0,
    ModeXor = 1'b1
  } mode_e;

endpackage

`default_nettype wire
